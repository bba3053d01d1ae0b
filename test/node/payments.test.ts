// createPayments, as a shop mounts it: one handler under one path routing …/session, …/status and
// …/webhook, the gateway's URLs from publicUrl, the status URL in the session answer, the status
// secret kept in the stores across a restart, sweep() for what no webhook settled, and the options
// refused when it is created.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  createGateway,
  createMemoryStores,
  createPayments,
  type Payment,
  type PaymentsOptions,
} from '../../src/server/index.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import { USSD_REQUEST } from './server-fixtures.js';

const ORIGIN = 'http://127.0.0.1:3000';
const closers: (() => Promise<unknown> | unknown)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

/** A shop on the sandbox: every gateway request it sent, and every payment onPaid saw. */
function shop(overrides: Partial<PaymentsOptions> = {}) {
  const sandbox = createSandboxGateway();
  const sent: { url: string; body: Record<string, unknown> }[] = [];
  const gateway = createGateway({
    baseUrl: 'https://sandbox.invalid',
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey: SANDBOX_SECRET_KEY,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST' && request.url.endsWith('/initiates'))
        sent.push({ url: request.url, body: await request.clone().json() });
      return sandbox.fetch(request);
    },
  });
  const paid: Payment[] = [];
  const payments = createPayments({
    gateway,
    stores: createMemoryStores(),
    order: async () => ({ amount: '5000.00', currency: 'NGN' }),
    onPaid: (payment) => void paid.push(payment),
    publicUrl: `${ORIGIN}/pay`,
    reconcile: false,
    ...overrides,
  });
  closers.push(
    () => payments.close(),
    () => sandbox.close(),
  );
  return { sandbox, payments, sent, paid };
}

function startSession(
  payments: { handler(request: Request): Promise<Response> },
  key = 'payments-test-0001',
): Promise<Response> {
  return payments.handler(
    new Request(`${ORIGIN}/pay/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(USSD_REQUEST),
    }),
  );
}

type Answer = { order: { paymentReference: string; amount: string; statusToken: string; statusUrl: string } };

function statusRequest(order: Answer['order']): Request {
  const url = new URL(order.statusUrl, `${ORIGIN}/pay/session`);
  url.search = new URLSearchParams({
    paymentReference: order.paymentReference,
    statusToken: order.statusToken,
  }).toString();
  return new Request(url);
}

describe('createPayments', () => {
  it('serves the session, the status and the webhook under one path, with the status URL in the answer', async () => {
    const { payments, sandbox, paid } = shop({ reconcile: false });
    const started = await startSession(payments);
    assert.equal(started.status, 200, await started.clone().text());
    const { order } = (await started.json()) as Answer;
    assert.equal(order.amount, '5000.00');
    assert.equal(
      new URL(order.statusUrl, `${ORIGIN}/pay/session`).href,
      `${ORIGIN}/pay/status`,
      'polled at …/status beside …/session',
    );

    const pending = await payments.handler(statusRequest(order));
    assert.equal(((await pending.json()) as { status: string }).status, 'PENDING');

    // The customer pays; the gateway's notification arrives at …/webhook.
    sandbox.setStatus(order.paymentReference, 'SUCCESS');
    const notification = await payments.handler(
      new Request(`${ORIGIN}/pay/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          notificationItems: [
            { notificationRequestItem: { eventType: 'transaction', data: { reference: order.paymentReference } } },
          ],
        }),
      }),
    );
    assert.equal(notification.status, 200, await notification.clone().text());
    assert.deepEqual(
      paid.map((payment) => payment.paymentReference),
      [order.paymentReference],
      'onPaid once, through the webhook',
    );
    const done = await payments.handler(statusRequest(order));
    assert.equal(((await done.json()) as { status: string }).status, 'SUCCESS');
  });

  it('answers 404 in the error body elsewhere under its path', async () => {
    const { payments } = shop();
    for (const path of ['/pay/', '/pay/sessions', '/pay/session/extra', '/pay/admin']) {
      const response = await payments.handler(new Request(`${ORIGIN}${path}`, { method: 'POST' }));
      assert.equal(response.status, 404, path);
      assert.equal(
        ((await response.json()) as { status: string; error: { code: string } }).error.code,
        'not_found',
        path,
      );
    }
  });

  it('sends the gateway callbackUrl publicUrl + /webhook and redirectUrl its origin when the order names none', async () => {
    const { payments, sent } = shop({ publicUrl: 'http://127.0.0.1:3000/shop/pay/' });
    assert.equal((await startSession(payments)).status, 200);
    assert.equal(sent[0]?.body.callbackUrl, 'http://127.0.0.1:3000/shop/pay/webhook');
    assert.equal(sent[0]?.body.redirectUrl, 'http://127.0.0.1:3000/');
  });

  it("keeps the order's own URLs when it names them", async () => {
    const { payments, sent } = shop({
      order: async () => ({
        amount: '5000.00',
        callbackUrl: 'https://shop.example/hooks/pay',
        redirectUrl: 'https://shop.example/thanks',
      }),
    });
    assert.equal((await startSession(payments)).status, 200);
    assert.equal(sent[0]?.body.callbackUrl, 'https://shop.example/hooks/pay');
    assert.equal(sent[0]?.body.redirectUrl, 'https://shop.example/thanks');
  });

  it('accepts after a restart a status token issued before it, with no statusSecret set', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'payments-restart-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'ledger.db');
    const before = createSqliteStores(file);
    const first = shop({ stores: before });
    const { order } = (await (await startSession(first.payments)).json()) as Answer;
    await first.payments.close();
    await before.close();

    const afterRestart = createSqliteStores(file);
    closers.push(() => afterRestart.close());
    const second = shop({ stores: afterRestart });
    const answer = await second.payments.handler(statusRequest(order));
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.equal(((await answer.json()) as { status: string }).status, 'PENDING');
  });

  it('answers 503 while the stores cannot give the status secret, and works once they can', async () => {
    const stores = createMemoryStores();
    let down = true;
    const keepSecret = stores.idempotency.keepSecret!.bind(stores.idempotency);
    stores.idempotency.keepSecret = (name, candidate) => {
      if (down) throw new Error('database restarting');
      return keepSecret(name, candidate);
    };
    const { payments } = shop({ stores });
    const refused = await startSession(payments);
    assert.equal(refused.status, 503);
    assert.equal(((await refused.json()) as { error: { code: string; retryable: boolean } }).error.code, 'server_busy');
    down = false;
    assert.equal((await startSession(payments)).status, 200, 'the secret is asked for again');
  });

  it('settles on sweep() a payment whose notification was lost, and runs onPaid once', async () => {
    let time = Date.now();
    const now = () => time;
    const { payments, sandbox, paid } = shop({ stores: createMemoryStores({ now }), now });
    const { order } = (await (await startSession(payments)).json()) as Answer;
    sandbox.setStatus(order.paymentReference, 'SUCCESS');
    // No notification reaches the shop. Nothing is due yet; a minute later the first check is.
    assert.equal((await payments.sweep()).checked, 0);
    time += 61_000;
    const swept = await payments.sweep();
    assert.equal(swept.paid, 1, JSON.stringify(swept));
    assert.deepEqual(
      paid.map((payment) => payment.paymentReference),
      [order.paymentReference],
    );
    time += 61_000;
    await payments.sweep();
    assert.equal(paid.length, 1, 'never twice');
  });
});

describe('createPayments refuses, when it is created, what cannot work', () => {
  const gateway = createGateway({
    baseUrl: 'https://seerbitapi.com',
    publicKey: 'SBPUBK_live',
    secretKey: 'SBSECK_live',
  });
  const base = { gateway, stores: createMemoryStores(), order: async () => ({ amount: '1' }), onPaid: () => {} };

  it('a loopback publicUrl with live keys, in one line saying why', () => {
    assert.throws(
      () => createPayments({ ...base, publicUrl: 'http://127.0.0.1:3000/pay' }),
      (error: Error) => {
        assert.match(
          error.message,
          /^createPayments: publicUrl http:\/\/127\.0\.0\.1:3000\/pay is this machine, which the gateway cannot reach/,
        );
        assert.ok(!error.message.includes('\n'));
        return true;
      },
    );
    assert.throws(() => createPayments({ ...base, publicUrl: 'http://localhost/pay' }), /cannot reach/);
  });

  it('a publicUrl that is not an absolute http(s) URL', () => {
    for (const publicUrl of ['/pay', 'shop.example/pay', 'ftp://shop.example/pay', '']) {
      assert.throws(
        () => createPayments({ ...base, publicUrl }),
        /publicUrl must be the absolute http\(s\) URL/,
        publicUrl,
      );
    }
  });

  it('stores that cannot keep a status secret, unless one is given', () => {
    const { keepSecret: _, ...idempotency } = createMemoryStores().idempotency;
    const stores = { payments: createMemoryStores().payments, idempotency };
    assert.throws(
      () => createPayments({ ...base, stores, publicUrl: 'https://shop.example/pay' }),
      /pass statusSecret/,
    );
    const made = createPayments({
      ...base,
      stores,
      publicUrl: 'https://shop.example/pay',
      statusSecret: 'x'.repeat(32),
      reconcile: false,
    });
    assert.equal(typeof made.handler, 'function');
  });

  it('missing stores, order or onPaid, and a store without its claims', () => {
    const publicUrl = 'https://shop.example/pay';
    assert.throws(() => createPayments({ ...base, publicUrl, stores: undefined as never }), /stores is required/);
    assert.throws(
      () => createPayments({ ...base, publicUrl, onPaid: undefined as never }),
      /onPaid must be a function/,
    );
    assert.throws(() => createPayments({ ...base, publicUrl, order: undefined as never }), /order must be a function/);
    const { claim: _, ...noClaim } = createMemoryStores().idempotency;
    assert.throws(
      () =>
        createPayments({
          ...base,
          publicUrl,
          stores: { payments: base.stores.payments, idempotency: noClaim as never },
        }),
      /lacks claim\(\)/,
    );
  });
});
