import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createMemoryPaymentStore,
  createStatusHandler,
  OrderError,
  RateLimitError,
  type BeforeInitiateContext,
  type StatusLookup,
} from '../../src/server/internal.js';
import { createStatusTokens } from '../../src/server/status/tokens.js';
import {
  makeHandler,
  ORDER,
  PUBLIC_KEY,
  post,
  readError,
  SESSION_URL,
  STATUS_SECRET,
  TOKEN,
  TRANSFER_REQUEST,
  USSD_REQUEST,
} from './server-fixtures.js';

type Success = { order: { paymentReference: string; amount: string; currency: string; statusToken?: string } };

describe('createSessionHandler: the server’s amount and a status token in the success body', () => {
  it('answers with order: the amount and currency charged (not the page’s hint) and a statusToken', async () => {
    const { handler, calls } = makeHandler({ statusSecret: STATUS_SECRET });
    const response = await handler(post({ ...TRANSFER_REQUEST, amount: '100' }));
    assert.equal(response.status, 200);
    const { order } = (await response.json()) as Success;
    assert.equal(calls[0]!.body.amount, '2500.00');
    const unsigned = { ...order, statusToken: undefined, expiresAt: undefined, expiresInMs: undefined }; // a TRANSFER's validity: session-order-extras.test.ts
    assert.deepEqual(unsigned, {
      paymentReference: 'order-42',
      amount: '2500.00',
      currency: 'NGN',
      statusToken: undefined,
      expiresAt: undefined,
      expiresInMs: undefined,
    });
    assert.match(order.statusToken!, /^\d+\.[\w-]{43}$/);
  });

  it('refuses a statusSecret shorter than 32 bytes, saying what to pass', () => {
    for (const statusSecret of ['short', 'x'.repeat(31), new Uint8Array(16)]) {
      assert.throws(() => makeHandler({ statusSecret }), /statusSecret.*at least 32 bytes/);
    }
    assert.doesNotThrow(() => makeHandler({ statusSecret: new Uint8Array(32) }));
  });

  it("records each initiated payment in the ledger as PENDING with its amount, currency, type, key and customer (for a person's search), started and due", async () => {
    const payments = createMemoryPaymentStore();
    const { handler, events } = makeHandler({ payments });
    const request = post(USSD_REQUEST);
    const key = request.headers.get('idempotency-key')!;
    await handler(request);
    const payment = await payments.get('order-42');
    assert.ok(payment);
    // Issue 15 item 1: written `asking` before the gateway was asked (version 1), then `started` (version 2).
    assert.equal(payment.dueAt, payment.createdAt + 60_000, 'due for the reconciler’s first look');
    assert.deepEqual(
      { ...payment, createdAt: 0, updatedAt: 0, dueAt: 0 },
      {
        paymentReference: 'order-42',
        paymentType: 'USSD',
        amount: '2500.00',
        currency: 'NGN',
        state: 'PENDING',
        version: 2,
        createdAt: 0,
        updatedAt: 0,
        idempotencyKey: key,
        initiation: 'started',
        dueAt: 0,
        customer: { name: USSD_REQUEST.fullName, email: USSD_REQUEST.email, phone: '+2348030000000' }, // the phone as validated: digits only
      },
    );
    assert.ok(events.some((e) => e.type === 'initiated' && e.paymentReference === 'order-42'));
  });

  it('records a decline as never started, and starts nothing when the ledger cannot be written', async () => {
    const payments = createMemoryPaymentStore();
    const declined = makeHandler({ payments }, () => Response.json({ status: 'FAILED' }, { status: 402 }));
    await readError(await declined.handler(post(USSD_REQUEST)), 402, 'payment_declined');
    const refused = await payments.get('order-42');
    assert.equal(refused?.initiation, 'refused');
    assert.equal(refused?.dueAt, undefined, 'nothing owed: off the reconciler’s sweep');

    // Issue 15 item 1: the ledger comes first; without it, no payment is started.
    const broken = { ...createMemoryPaymentStore(), insert: () => Promise.reject(new Error('ledger down')) };
    const { handler, events, calls } = makeHandler({ payments: broken });
    await readError(await handler(post(USSD_REQUEST)), 503, 'server_busy');
    assert.equal(calls.length, 0, 'the gateway was not asked');
    assert.ok(events.some((e) => e.type === 'internal-error' && e.where === 'ledger' && /ledger down/.test(e.detail)));
  });
});

describe('createStatusHandler: signed status tokens', () => {
  const URL_BASE = 'https://shop.test/pay/status';
  function counted() {
    const seen: string[] = [];
    const lookup: StatusLookup = (reference) => (seen.push(reference), { status: 'PENDING' });
    return { seen, lookup };
  }

  it('answers a forged, expired, other reference’s or missing token exactly like an unknown reference, without a lookup', async () => {
    const { seen, lookup } = counted();
    const tokens = createStatusTokens(STATUS_SECRET, { who: 'test' });
    const handler = createStatusHandler({ statusSecret: STATUS_SECRET, lookup });
    const other = createStatusTokens('another-secret-of-at-least-32-bytes!', { who: 'test' });
    const good = await tokens.sign('order-1');
    const [expiry, mac] = good.split('.') as [string, string];
    const flipped = `${expiry}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    const expired = await createStatusTokens(STATUS_SECRET, { ttlMs: -1_000, who: 'test' }).sign('order-1');
    const bad = [
      '',
      `&statusToken=`,
      `&statusToken=${flipped}`,
      `&statusToken=${Number(expiry) + 100}.${mac}`,
      `&statusToken=${await tokens.sign('order-2')}`,
      `&statusToken=${await other.sign('order-1')}`,
      `&statusToken=${expired}`,
      `&statusToken=not-a-token`,
    ];
    const unknownBody = await (
      await createStatusHandler({ statusSecret: STATUS_SECRET, lookup: () => null })(
        new Request(`${URL_BASE}?paymentReference=order-1&statusToken=${good}`),
      )
    ).text();
    for (const query of bad) {
      const response = await handler(new Request(`${URL_BASE}?paymentReference=order-1${query}`));
      assert.equal(response.status, 404, query);
      assert.equal(await response.text(), unknownBody, `${query}: the same body as an unknown reference`);
    }
    assert.deepEqual(seen, [], 'the store was never read');
    const ok = await handler(new Request(`${URL_BASE}?paymentReference=order-1&statusToken=${good}`));
    assert.equal(ok.status, 200);
    assert.deepEqual(seen, ['order-1']);
  });

  it('accepts only the token as signed: every other last character is refused like an unknown reference (issue 16 item 8)', async () => {
    const { seen, lookup } = counted();
    const handler = createStatusHandler({ statusSecret: STATUS_SECRET, lookup });
    const good = await createStatusTokens(STATUS_SECRET, { who: 'test' }).sign('order-1');
    const unknownBody = await (
      await createStatusHandler({ statusSecret: STATUS_SECRET, lookup: () => null })(
        new Request(`${URL_BASE}?paymentReference=order-1&statusToken=${good}`),
      )
    ).text();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const accepted: string[] = [];
    for (const last of alphabet) {
      if (last === good.at(-1)) continue;
      const variant = `${good.slice(0, -1)}${last}`;
      const response = await handler(new Request(`${URL_BASE}?paymentReference=order-1&statusToken=${variant}`));
      if (response.status !== 404 || (await response.text()) !== unknownBody) accepted.push(last);
    }
    assert.deepEqual(accepted, [], `variants of the last character ${good.at(-1)} that were accepted`);
    assert.deepEqual(seen, [], 'the store was never read');
  });

  it('refuses to start without statusSecret, saying what to pass', () => {
    const lookup = () => null;
    assert.throws(
      () => createStatusHandler({ lookup } as never),
      (error: unknown) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, /createStatusHandler: pass statusSecret/);
        return true;
      },
    );
    assert.throws(() => createStatusHandler({ statusSecret: 'too short', lookup }), /at least 32 bytes/);
  });

  it('accepts the token the session handler gave, with the same secret', async () => {
    const { handler } = makeHandler({ statusSecret: STATUS_SECRET });
    const { order } = (await (await handler(post(USSD_REQUEST))).json()) as Success;
    const { seen, lookup } = counted();
    const status = createStatusHandler({ statusSecret: STATUS_SECRET, lookup });
    const response = await status(
      new Request(`${URL_BASE}?paymentReference=${order.paymentReference}&statusToken=${order.statusToken}`),
    );
    assert.equal(response.status, 200);
    assert.deepEqual(seen, ['order-42']);
  });
});

describe('createSessionHandler: safety details', () => {
  for (const [field, url] of [
    ['callbackUrl', 'http://shop.test/cb'],
    ['redirectUrl', 'javascript:alert(1)'],
    ['redirectUrl', 'data:text/html,hi'],
    ['callbackUrl', 'ftp://shop.test/cb'],
  ] as const) {
    it(`never forwards ${field} ${url}: 500 config, reported to onEvent`, async () => {
      const { handler, calls, events } = makeHandler({ order: () => ({ ...ORDER, [field]: url }) });
      const error = await readError(await handler(post(USSD_REQUEST)), 500, 'config');
      assert.doesNotMatch(error.message, /https|callback|redirect/i, 'the customer is not told the merchant’s set-up');
      assert.equal(calls.length, 0);
      const reported = events.find((e) => e.type === 'internal-error' && e.where === 'config');
      assert.ok(reported?.type === 'internal-error' && reported.detail.includes(field), JSON.stringify(events));
    });
  }

  it('forwards http: URLs on localhost, 127.0.0.1 and [::1] (development)', async () => {
    for (const host of ['localhost:5173', '127.0.0.1', '[::1]:8080']) {
      const { handler, calls } = makeHandler({
        order: () => ({ ...ORDER, callbackUrl: `http://${host}/cb`, redirectUrl: `http://${host}/` }),
      });
      assert.equal((await handler(post(USSD_REQUEST))).status, 200, host);
      assert.equal(calls.length, 1);
    }
  });

  it('redacts secrets from an OrderError’s message and fields', async () => {
    const { handler } = makeHandler({
      order: () => {
        throw new OrderError(`Refused for ${TOKEN}`, { fields: { amount: `key ${PUBLIC_KEY}`, [TOKEN]: 'x' } });
      },
    });
    const response = await handler(post(USSD_REQUEST));
    const text = await response.clone().text();
    const error = await readError(response, 422, 'order_refused');
    assert.ok(!text.includes(TOKEN) && !text.includes(PUBLIC_KEY), text);
    assert.match(error.message, /\[redacted\]/);
    assert.match(error.fields!.amount!, /\[redacted\]/);
  });

  it(
    'cuts off a body that trickles in, within the deadline, with 408 request_timeout',
    { timeout: 5_000 },
    async () => {
      const { handler, calls } = makeHandler({ attemptTimeoutMs: 100 });
      let timer: ReturnType<typeof setInterval> | undefined;
      let cancelled = false;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          // One byte every 20 ms, for ever.
          timer = setInterval(() => controller.enqueue(new TextEncoder().encode(' ')), 20);
        },
        cancel() {
          cancelled = true;
          clearInterval(timer);
        },
      });
      const request = new Request(SESSION_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'trickle-0001' },
        body,
        duplex: 'half',
      } as RequestInit);
      await readError(await handler(request), 408, 'request_timeout');
      assert.equal(cancelled, true, 'the body stream was stopped');
      assert.equal(calls.length, 0);
      clearInterval(timer);
    },
  );
});

describe('createSessionHandler: beforeInitiate', () => {
  it('runs after validation and before the order, with the request, the body and the adapter’s client address', async () => {
    const seen: BeforeInitiateContext[] = [];
    let orders = 0;
    const { handler } = makeHandler({
      beforeInitiate: (context) => void seen.push(context),
      order: () => (orders++, ORDER),
    });
    await readError(await handler(post({ ...USSD_REQUEST, email: 'nope' })), 400, 'validation');
    assert.equal(seen.length, 0, 'not for an invalid body');
    const request = post(USSD_REQUEST);
    await handler(request, { incoming: { socket: { remoteAddress: '203.0.113.7' } } });
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.request, request);
    assert.equal(seen[0]!.clientAddress, '203.0.113.7');
    assert.equal(seen[0]!.body.email, 'ada@example.ng');
    assert.equal(orders, 1);
    await handler(post(USSD_REQUEST), { remoteAddr: { hostname: '198.51.100.2' } });
    assert.equal(seen[1]!.clientAddress, '198.51.100.2', 'Deno.serve’s info');
  });

  it('answers 429 with Retry-After for a RateLimitError, before any order or gateway call', async () => {
    let orders = 0;
    const { handler, calls, events } = makeHandler({
      beforeInitiate: () => {
        throw new RateLimitError({ retryAfterSeconds: 7.2 });
      },
      order: () => (orders++, ORDER),
    });
    const response = await handler(post(USSD_REQUEST));
    assert.equal(response.headers.get('retry-after'), '8');
    const error = await readError(response, 429, 'rate_limited');
    assert.match(error.message, /8 s/);
    assert.equal(orders, 0);
    assert.equal(calls.length, 0);
    assert.ok(events.some((e) => e.type === 'rate-limited' && e.retryAfterSeconds === 8));
  });

  it('refuses with an OrderError’s 4xx, and answers 500 for anything else thrown', async () => {
    const fraud = makeHandler({
      beforeInitiate: () => {
        throw new OrderError('Payments from this network are not accepted.', { status: 403 });
      },
    });
    await readError(await fraud.handler(post(USSD_REQUEST)), 403, 'order_refused');
    const buggy = makeHandler({
      beforeInitiate: () => {
        throw new Error(`limiter crashed near ${TOKEN}`);
      },
    });
    const error = await readError(await buggy.handler(post(USSD_REQUEST)), 500, 'internal');
    assert.doesNotMatch(error.message, /limiter/);
    assert.ok(
      buggy.events.some(
        (e) => e.type === 'internal-error' && e.where === 'beforeInitiate' && !e.detail.includes(TOKEN),
      ),
    );
  });

  it('takes a clientAddress option for servers behind a proxy, and refuses a non-function', async () => {
    const seen: (string | undefined)[] = [];
    const { handler } = makeHandler({
      clientAddress: (request) => request.headers.get('x-real-ip') ?? undefined,
      beforeInitiate: ({ clientAddress }) => void seen.push(clientAddress),
    });
    await handler(post(USSD_REQUEST, { 'x-real-ip': '192.0.2.9' }));
    assert.deepEqual(seen, ['192.0.2.9']);
    assert.throws(() => makeHandler({ beforeInitiate: 'no' as never }), /beforeInitiate must be a function/);
  });
});
