/**
 * demo/server.ts without a browser: the order (`createDemoOrder`), and the backend's routes served
 * over 127.0.0.1 (the sandbox posts its webhooks back over the socket). The end-to-end test in
 * Chromium is demo-e2e.test.ts.
 */
import { getRequestListener } from '@hono/node-server';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createClient } from 'redis';
import { createDemoBackend, createDemoOrder, DEMO_PATHS, type DemoBackend } from '../../demo/server.js';
import type { LoopStep } from '../../demo/loop-log.js';
import type { SessionRequest } from '../../src/contract/schemas.js';
import { SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import { startRedisServer } from './redis-server.js';
import { readError, statusBody } from './server-fixtures.js';

const CUSTOMER = {
  paymentType: 'TRANSFER',
  fullName: 'Ada Obi',
  email: 'ada@example.com',
  mobileNumber: '08012345678',
} as const;
const quiet = { info: (_line: string) => {}, warn: (_line: string) => {} };

function sessionPost(url: string, body: unknown = CUSTOMER, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...headers },
    body: JSON.stringify(body),
  });
}

describe('demo: createDemoOrder', () => {
  const order = createDemoOrder(() => 'http://127.0.0.1:5173');
  const resolve = (request: Partial<SessionRequest>, url = 'http://evil.example/pay/session') =>
    order({ ...CUSTOMER, ...request } as SessionRequest, {
      request: new Request(url, { headers: { host: 'evil.example' } }),
    });

  it('builds callbackUrl and redirectUrl from the configured origin, never from the request’s host', async () => {
    const resolved = await resolve({});
    assert.equal(resolved.callbackUrl, 'http://127.0.0.1:5173/pay/callback');
    assert.equal(resolved.redirectUrl, 'http://127.0.0.1:5173/');
    const unknown = createDemoOrder(() => undefined);
    assert.throws(
      () => unknown({ ...CUSTOMER } as SessionRequest, { request: new Request('http://evil.example/') }),
      /origin/,
    );
  });

  it('normalizes the accepted amount to two decimals, as the README’s donation example does', async () => {
    assert.equal((await resolve({})).amount, '5000.00');
    assert.equal((await resolve({ amount: '1500' })).amount, '1500.00');
    assert.equal((await resolve({ amount: '1500.5' })).amount, '1500.50');
    assert.equal((await resolve({ amount: '0100' })).amount, '100.00');
    await assert.rejects(async () => resolve({ amount: '99.99' }), { name: 'OrderError' });
    await assert.rejects(async () => resolve({ currency: 'USD' }), { name: 'OrderError' });
  });

  it('names no reference of its own, so a retry of an Idempotency-Key names the same payment however long after', async () => {
    // A random reference here would be new on each run of the resolver: a retry after the key's
    // record is gone would start a second payment.
    const first = await resolve({});
    assert.equal(first.paymentReference, undefined);
    assert.equal((await resolve({})).paymentReference, first.paymentReference);
  });
});

const servers: Server[] = [];
const backends: DemoBackend[] = [];

after(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await Promise.all(backends.map((backend) => backend.close()));
});

/** The backend's routes on a free 127.0.0.1 port, as the Vite plugin mounts them; the backend is told the address. */
async function serve(backend: DemoBackend): Promise<string> {
  backends.push(backend);
  const listeners = new Map(
    Object.entries(backend.routes).map(([path, handler]) => [
      path,
      getRequestListener(handler, { overrideGlobalObjects: false }),
    ]),
  );
  const server = createServer((req, res) => {
    const listener = listeners.get((req.url ?? '/').split('?', 1)[0]!);
    if (listener) void listener(req, res);
    else res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  backend.listeningAt(`${origin}/`);
  return origin;
}

/** Waits (up to 10 s) for a step of `kind` about `reference`. */
async function stepOf(backend: DemoBackend, kind: string, reference: string): Promise<LoopStep> {
  const until = Date.now() + 10_000;
  for (;;) {
    const step = backend
      .steps()
      .find((candidate) => candidate.kind === kind && candidate.paymentReference === reference);
    if (step) return step;
    if (Date.now() > until)
      throw new Error(`no ${kind} step for ${reference}: ${JSON.stringify(backend.steps(), null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function initiate(origin: string, body: unknown = CUSTOMER) {
  const response = await fetch(`${origin}${DEMO_PATHS.session}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { order: { paymentReference: string; statusToken: string; amount: string } })
    .order;
}

describe('demo: createDemoBackend', () => {
  it('uses the listening URL, or PAY_PUBLIC_ORIGIN when set, and answers 500 until it knows one', async () => {
    const backend = await createDemoBackend({}, quiet);
    backends.push(backend);
    const session = backend.routes[DEMO_PATHS.session]!;
    await readError(await session(sessionPost('http://127.0.0.1:5173/pay/session')), 500, 'internal');
    backend.listeningAt('http://127.0.0.1:5173/');
    assert.equal((await session(sessionPost('http://127.0.0.1:5173/pay/session'))).status, 200);

    const warnings: string[] = [];
    const tunnel = await createDemoBackend(
      { PAY_PUBLIC_ORIGIN: 'https://demo.tunnel.example/ignored/path' },
      { info: () => {}, warn: (line: string) => void warnings.push(line) },
    );
    backends.push(tunnel);
    assert.equal(
      (await tunnel.routes[DEMO_PATHS.session]!(sessionPost('http://127.0.0.1:5173/pay/session'))).status,
      200,
    );
    assert.equal(warnings.length, 0);
    backends.push(
      await createDemoBackend(
        { PAY_PUBLIC_ORIGIN: 'javascript:alert(1)' },
        { info: () => {}, warn: (line: string) => void warnings.push(line) },
      ),
    );
    assert.match(warnings[0] ?? '', /PAY_PUBLIC_ORIGIN/);
  });

  it('PAY_TRANSFER_VALIDITY_MS sets how long a transfer’s account is shown as valid (issue 27); a bad value warns and keeps 30 minutes', async () => {
    const expiresIn = async (env: Record<string, string>, warn: (line: string) => void = () => {}) => {
      const backend = await createDemoBackend(env, { info: () => {}, warn });
      const before = Date.now();
      const order = (await initiate(await serve(backend))) as { expiresAt?: string };
      return Date.parse(order.expiresAt!) - before;
    };
    const minute = await expiresIn({ PAY_TRANSFER_VALIDITY_MS: '60000' });
    assert.ok(minute > 55_000 && minute <= 61_000, `${minute} ms`);
    const warnings: string[] = [];
    const fallback = await expiresIn({ PAY_TRANSFER_VALIDITY_MS: 'soon' }, (line) => void warnings.push(line));
    assert.ok(fallback > 29 * 60_000 && fallback <= 30 * 60_000 + 1_000, `${fallback} ms`);
    assert.deepEqual(warnings, [
      'pay-widget demo: PAY_TRANSFER_VALIDITY_MS is not a positive whole number of milliseconds; a transfer stays valid for the default 30 minutes.',
    ]);
  });

  it('closes the loop over the socket: the customer paid → webhook → ledger → onPaid once → status SUCCESS', async () => {
    const backend = await createDemoBackend({}, quiet);
    const origin = await serve(backend);
    const order = await initiate(origin);
    const { paymentReference, statusToken } = order;
    const statusUrl = `${origin}${DEMO_PATHS.status}?paymentReference=${paymentReference}&statusToken=${statusToken}`;
    assert.deepEqual(await statusBody(await fetch(statusUrl)), {
      status: 'PENDING',
      amount: '5000.00',
      currency: 'NGN',
    });

    const simulate = await fetch(`${origin}${DEMO_PATHS.simulate}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ paymentReference, status: 'SUCCESS' }),
    });
    assert.equal(simulate.status, 200);
    assert.equal(simulate.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await simulate.json(), {
      paymentReference,
      status: 'SUCCESS',
      message: 'Simulated by the demo: the customer approved the payment.',
    });

    await stepOf(backend, 'on-paid', paymentReference);
    assert.deepEqual(await statusBody(await fetch(statusUrl)), {
      status: 'SUCCESS',
      amount: '5000.00',
      currency: 'NGN',
    });
    await stepOf(backend, 'status-answered', paymentReference);
    const kinds = backend
      .steps()
      .filter((step) => step.paymentReference === paymentReference)
      .map((step) => `${step.source}:${step.kind}`);
    assert.deepEqual(kinds, [
      'session:initiated',
      'sandbox:customer',
      'webhook:verified',
      'ledger:paid',
      'merchant:on-paid',
      'ledger:fulfilled',
      'sandbox:webhook-sent',
      'status:status-answered',
    ]);
    assert.match(backend.steps().find((step) => step.kind === 'webhook-sent')!.text, /HTTP 200, acknowledged/);

    // The page reads the same steps, newest after `after`; nothing secret or personal among them.
    const events = (await (await fetch(`${origin}${DEMO_PATHS.events}?after=0`)).json()) as { steps: LoopStep[] };
    assert.deepEqual(
      events.steps.map((step) => step.kind),
      backend.steps().map((step) => step.kind),
    );
    const lastId = events.steps.at(-1)!.id;
    assert.deepEqual(
      ((await (await fetch(`${origin}${DEMO_PATHS.events}?after=${lastId}`)).json()) as { steps: LoopStep[] }).steps,
      [],
    );
    const text = JSON.stringify(events);
    for (const secret of [
      SANDBOX_SECRET_KEY,
      SANDBOX_PUBLIC_KEY,
      SANDBOX_ACCESS_TOKEN,
      statusToken,
      CUSTOMER.email,
      CUSTOMER.fullName,
      CUSTOMER.mobileNumber,
    ]) {
      assert.ok(!text.includes(secret), `the loop log shows ${secret}`);
    }
  });

  it('with “webhook lost” on, the webhook never arrives and the reconciler’s next sweep pays it: onPaid once, status SUCCESS, the sweep in the log', async () => {
    // The reconciler first looks at a payment a minute after it started: its clock is moved past that.
    let ahead = 0;
    const backend = await createDemoBackend({ PAY_RECONCILE_INTERVAL_MS: '50' }, quiet, {
      reconcilerNow: () => Date.now() + ahead,
    });
    const origin = await serve(backend);
    const switchUrl = `${origin}${DEMO_PATHS.webhookLost}`;
    const turn = (lost: boolean) =>
      fetch(switchUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ lost }),
      });
    assert.deepEqual(await (await fetch(switchUrl)).json(), { lost: false });
    assert.deepEqual(await (await turn(true)).json(), { lost: true });
    assert.deepEqual(await (await fetch(switchUrl)).json(), { lost: true });
    const { paymentReference, statusToken } = await initiate(origin);
    await turn(false); // only payments started while it was on lose their webhook

    const simulate = await fetch(`${origin}${DEMO_PATHS.simulate}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ paymentReference, status: 'SUCCESS' }),
    });
    assert.equal(simulate.status, 200);
    await stepOf(backend, 'webhook-lost', paymentReference);
    // The customer paid, but nothing told this server: the ledger still says PENDING, even to "I've
    // sent the money" once its 2 s floor passed (which re-queries a payment whose webhook was not lost).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const statusUrl = `${origin}${DEMO_PATHS.status}?paymentReference=${paymentReference}&statusToken=${statusToken}`;
    assert.equal(((await (await fetch(`${statusUrl}&recheck=1`)).json()) as { status: string }).status, 'PENDING');
    assert.equal(
      backend.steps().some((step) => step.kind === 'on-paid'),
      false,
    );

    ahead = 61_000;
    await stepOf(backend, 'on-paid', paymentReference);
    assert.deepEqual(await statusBody(await fetch(statusUrl)), {
      status: 'SUCCESS',
      amount: '5000.00',
      currency: 'NGN',
    });
    const kinds = backend
      .steps()
      .filter((step) => step.paymentReference === paymentReference)
      .map((step) => `${step.source}:${step.kind}`);
    // Every try of the webhook (the sandbox retries after 2 s) is lost.
    assert.deepEqual(kinds.slice(0, 3), ['session:initiated', 'sandbox:customer', 'sandbox:webhook-lost']);
    assert.equal(kinds.filter((kind) => kind !== 'sandbox:webhook-lost')[2], 'reconciler:verified');
    assert.ok(!kinds.includes('sandbox:webhook-sent'), kinds.join());
    assert.ok(!kinds.includes('webhook:verified') && !kinds.includes('status:verified'), kinds.join());
    assert.deepEqual(
      kinds.filter((kind) => kind.startsWith('ledger:') || kind.startsWith('merchant:')),
      ['ledger:paid', 'merchant:on-paid', 'ledger:fulfilled'],
    );
    assert.match(backend.steps().find((step) => step.kind === 'paid')!.text, /moved by the reconciler/);

    const sweeps = backend.steps().filter((step) => step.source === 'reconciler' && !step.paymentReference);
    assert.match(sweeps[0]!.text, /every 0\.05 s/);
    const sweep = await (async () => {
      for (
        const until = Date.now() + 10_000;
        Date.now() < until;
        await new Promise((resolve) => setTimeout(resolve, 25))
      ) {
        const found = backend.steps().find((step) => step.kind === 'sweep');
        if (found) return found;
      }
      throw new Error('no sweep step');
    })();
    assert.equal(sweep.text, "A sweep of the ledger's due entries: checked 1, paid 1, fulfilled 1.");
    // Empty sweeps (every 50 ms here) are not listed.
    assert.equal(backend.steps().filter((step) => step.kind === 'sweep').length, 1);
  });

  it('answers the simulate endpoint’s mistakes in the server’s error shape, same origin only', async () => {
    const backend = await createDemoBackend({}, quiet);
    const origin = await serve(backend);
    const { paymentReference } = await initiate(origin);
    const simulate = backend.routes[DEMO_PATHS.simulate]!;
    const url = `${origin}${DEMO_PATHS.simulate}`;

    await readError(
      await simulate(sessionPost(url, { paymentReference, status: 'SUCCESS' }, { origin: 'https://evil.example' })),
      403,
      'origin_not_allowed',
    );
    await readError(await simulate(new Request(url)), 405, 'method_not_allowed');
    await readError(
      await simulate(new Request(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })),
      415,
      'unsupported_media_type',
    );
    await readError(
      await simulate(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })),
      400,
      'invalid_json',
    );
    const invalid = await readError(
      await simulate(sessionPost(url, { paymentReference: 'a b', status: 'PAID' })),
      400,
      'validation',
    );
    assert.deepEqual(Object.keys(invalid.fields ?? {}).sort(), ['paymentReference', 'status']);
    await readError(
      await simulate(sessionPost(url, { paymentReference: 'INV/2024/0042', status: 'SUCCESS' })),
      404,
      'not_found',
    );
    await readError(
      await backend.routes[DEMO_PATHS.events]!(new Request(`${origin}${DEMO_PATHS.events}`, { method: 'POST' })),
      405,
      'method_not_allowed',
    );
    // No payment changed: the status still answers PENDING, and only with the reference's token.
    await readError(
      await backend.routes[DEMO_PATHS.status]!(
        new Request(`${origin}${DEMO_PATHS.status}?paymentReference=${paymentReference}`),
      ),
      404,
      'not_found',
    );
  });

  it('talks to a real gateway with PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY, where simulate is not available', async () => {
    const env = {
      PAY_BASE_URL: 'https://gateway.invalid/base',
      PAY_PUBLIC_KEY: 'pk_live_x',
      PAY_SECRET_KEY: 'sk_live_y',
    };
    const backend = await createDemoBackend(env, quiet);
    backends.push(backend);
    assert.equal(backend.mode, 'gateway');
    assert.equal(backend.gatewayOrigin, 'https://gateway.invalid');
    assert.match(backend.describe(), /\/pay\/webhook/);
    assert.doesNotMatch(backend.describe(), /sk_live_y|pk_live_x/);
    const response = await backend.routes[DEMO_PATHS.simulate]!(
      sessionPost('http://127.0.0.1:5173/pay/simulate', { paymentReference: 'x', status: 'SUCCESS' }),
    );
    await readError(response, 409, 'not_available');

    const warnings: string[] = [];
    const partial = await createDemoBackend(
      { PAY_BASE_URL: 'https://gateway.invalid' },
      { info: () => {}, warn: (line) => void warnings.push(line) },
    );
    backends.push(partial);
    assert.equal(partial.mode, 'sandbox');
    assert.match(warnings.join(), /PAY_PUBLIC_KEY, PAY_SECRET_KEY/);
  });

  it('keeps its payments across a restart in its data folder: started before, paid after, onPaid and SUCCESS with the same status token', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pay-widget-demo-data-'));
    try {
      const before = await createDemoBackend({}, quiet, { dataFolder: folder });
      assert.equal(before.stores, 'sqlite');
      assert.match(before.describe(), /demo-ledger\.db/);
      const firstOrigin = await serve(before);
      const { paymentReference, statusToken } = await initiate(firstOrigin);
      await before.close();

      // The restart: a new backend (new sandbox, new stores) on the same folder, on another port.
      const after = await createDemoBackend({}, quiet, { dataFolder: folder });
      const origin = await serve(after);
      const statusUrl = `${origin}${DEMO_PATHS.status}?paymentReference=${paymentReference}&statusToken=${statusToken}`;
      assert.deepEqual(
        await statusBody(await fetch(statusUrl)),
        { status: 'PENDING', amount: '5000.00', currency: 'NGN' },
        'the ledger and the token survived',
      );
      const simulate = await fetch(`${origin}${DEMO_PATHS.simulate}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ paymentReference, status: 'SUCCESS' }),
      });
      assert.equal(simulate.status, 200, 'the sandbox still knows the payment');
      await stepOf(after, 'on-paid', paymentReference);
      assert.deepEqual(await statusBody(await fetch(statusUrl)), {
        status: 'SUCCESS',
        amount: '5000.00',
        currency: 'NGN',
      });
      await after.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('keeps the idempotency records and the ledger in Redis when REDIS_URL is set', { timeout: 30_000 }, async () => {
    const redis = await startRedisServer();
    try {
      const backend = await createDemoBackend({ REDIS_URL: redis.url }, quiet);
      assert.equal(backend.stores, 'redis');
      const origin = await serve(backend);
      const { paymentReference } = await initiate(origin);
      const client = await createClient({ url: redis.url }).connect();
      try {
        const keys = (await client.keys('pay-widget-demo:*')).join(' ');
        assert.ok(keys.includes(paymentReference), `the ledger entry is in Redis: ${keys}`);
      } finally {
        await client.quit();
      }
      await backend.close();
    } finally {
      await redis.stop();
    }
  });
});
