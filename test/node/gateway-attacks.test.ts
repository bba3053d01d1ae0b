// Issue 16 (attack review), the gateway client's part: each test failed on the code before its fix.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAYMENT_REFERENCE } from '../../src/contract/rules.js';
import {
  createGateway,
  createSessionHandler,
  type GatewayOptions,
  type SessionEvent,
  type SettleEvent,
} from '../../src/server/internal.js';
import { settlePayment } from '../../src/server/settlement/settle.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { Payment } from '../../src/server/stores/types.js';
import {
  BASE_URL,
  fakeGateway,
  initiationBody as initiation,
  json,
  PUBLIC_KEY,
  SECRET_KEY,
  tokenAnswer,
  type Seen,
} from './gateway-fixtures.js';
import { ORDER, post, TRANSFER_REQUEST } from './server-fixtures.js';

const TOKEN = 'tOk3n+One/AAAAbbbbCCCCdddd==';

function keyedGateway(
  answer: (request: Seen, count: number) => Response | Promise<Response>,
  options: Partial<GatewayOptions> = {},
) {
  const fake = fakeGateway((request, count) =>
    request.path === '/api/v2/encrypt/keys' ? tokenAnswer(TOKEN) : answer(request, count),
  );
  const gateway = createGateway({
    baseUrl: BASE_URL,
    publicKey: PUBLIC_KEY,
    secretKey: SECRET_KEY,
    fetch: fake.fetch,
    ...options,
  });
  return { gateway, ...fake };
}

/** A paid query answer whose `payments` are exactly `payments`. */
function paidAnswer(payments: Record<string, unknown>): Response {
  return json(200, { status: 'SUCCESS', data: { code: '00', message: 'Successful', payments } });
}

describe('issue 16 item 4: references that change the query URL', () => {
  it('refuses references made only of dots, and dot segments a URL would resolve', () => {
    for (const bad of ['.', '..', '...', '....', 'a/..', '../a', 'a/./b', './a', 'INV/..']) {
      assert.equal(PAYMENT_REFERENCE.test(bad), false, bad);
    }
    for (const good of ['INV/2024/0042', 'order:42.a_b-c', 'a.b', '..a', 'a..', 'v1.2/..x', '.hidden']) {
      assert.equal(PAYMENT_REFERENCE.test(good), true, good);
    }
  });

  it('sends no query for "." or "..", so the token never goes to another path', async () => {
    const { gateway, seen } = keyedGateway(() => paidAnswer({ amount: 5000, currency: 'NGN' }));
    for (const reference of ['.', '..']) {
      const outcome = await gateway.query(reference);
      assert.equal(outcome.kind, 'unverified', reference);
    }
    assert.deepEqual(
      seen.filter((request) => request.path.startsWith('/api/v3/') || request.path.startsWith('/api/v2/payments')),
      [],
    );
  });

  for (const [name, payments] of [
    ['without a paymentReference', { amount: 5000, currency: 'NGN' }],
    ['with an empty paymentReference', { paymentReference: '', amount: 5000, currency: 'NGN' }],
    ['with another paymentReference', { paymentReference: 'SOMEONE-ELSE', amount: 5000, currency: 'NGN' }],
    ['with a paymentReference that is not a string', { paymentReference: 1042, amount: 5000, currency: 'NGN' }],
  ] as const) {
    it(`reads a paid answer ${name} as unverified, never SUCCESS`, async () => {
      const { gateway } = keyedGateway(() => paidAnswer(payments));
      const outcome = await gateway.query('ORDER-1042');
      assert.deepEqual(outcome, { kind: 'unverified', reason: 'other-reference', httpStatus: 200 });
    });
  }
});

describe('issue 16 item 5: two amounts that disagree', () => {
  /** Queries ORDER-1042 (ledger: 5000.00 NGN) and settles with the answer; what the merchant hears. */
  async function settleWith(payments: Record<string, unknown>) {
    const { gateway } = keyedGateway(() =>
      paidAnswer({ paymentReference: 'ORDER-1042', currency: 'NGN', ...payments }),
    );
    const outcome = await gateway.query('ORDER-1042');
    assert.equal(outcome.kind, 'answer');
    if (outcome.kind !== 'answer') throw new Error('no answer');
    const store = createMemoryPaymentStore();
    const entry: Payment = {
      paymentReference: 'ORDER-1042',
      paymentType: 'TRANSFER',
      amount: '5000.00',
      currency: 'NGN',
      state: 'PENDING',
      version: 1,
      createdAt: 1,
      updatedAt: 1,
    };
    await store.insert(entry);
    const paid: Payment[] = [];
    const events: SettleEvent[] = [];
    const result = await settlePayment(entry, outcome, {
      payments: store,
      onPaid: (payment) => void paid.push(payment),
      emit: (event) => events.push(event),
    });
    return { outcome, result, paid, events, stored: await store.get('ORDER-1042') };
  }

  for (const [name, payments] of [
    [
      'paymentBreakdown.amount 5000, payments.amount 1',
      { amount: 1, paymentBreakdown: { amount: 5000, fee: 75, total: 5075 } },
    ],
    [
      'paymentBreakdown.amount 5000, payments.amount 6000 (more than amount + fee)',
      { amount: 6000, paymentBreakdown: { amount: 5000, fee: 75, total: 5075 } },
    ],
    [
      'paymentBreakdown.amount "5000", payments.amount "1.00"',
      { amount: '1.00', paymentBreakdown: { amount: '5000' } },
    ],
  ] as const) {
    it(`does not pay a 00 answer with ${name}: an amount mismatch`, async () => {
      const { outcome, result, paid, events, stored } = await settleWith(payments);
      assert.notEqual(outcome.amount, 5000);
      assert.equal(paid.length, 0);
      assert.deepEqual(
        { kind: result.kind, reason: result.kind === 'pending' ? result.reason : undefined },
        { kind: 'pending', reason: 'mismatch' },
      );
      assert.equal(stored?.state, 'PENDING');
      assert.ok(
        events.some((event) => event.type === 'amount-mismatch' && event.expected.amount === '5000.00'),
        JSON.stringify(events),
      );
    });
  }

  for (const [name, payments] of [
    [
      'payments.amount equal to paymentBreakdown.amount',
      { amount: 5000, paymentBreakdown: { amount: 5000, fee: 75, total: 5075 } },
    ],
    [
      'payments.amount the total with the fee',
      { amount: 5075, paymentBreakdown: { amount: 5000, fee: 75, total: 5075 } },
    ],
    [
      'payments.amount the total with the fee from payments.fee',
      { amount: 5075, fee: '75.00', paymentBreakdown: { amount: 5000 } },
    ],
  ] as const) {
    it(`still pays a 00 answer with ${name}`, async () => {
      const { result, paid } = await settleWith(payments);
      assert.equal(result.kind, 'settled');
      assert.equal(paid.length, 1);
    });
  }
});

describe('issue 16 item 6: a token storm', () => {
  /** Keys the gateway keeps refusing: every token it makes is new, and every initiation is a 401. */
  function refusingGateway(options: Partial<GatewayOptions> = {}) {
    let issued = 0;
    const fake = fakeGateway((request) =>
      request.path === '/api/v2/encrypt/keys'
        ? tokenAnswer(`token-${++issued}`)
        : json(401, { message: 'Invalid Authentication Token', error: 'INPUT' }),
    );
    const gateway = createGateway({
      baseUrl: BASE_URL,
      publicKey: PUBLIC_KEY,
      secretKey: SECRET_KEY,
      fetch: fake.fetch,
      ...options,
    });
    const events: SessionEvent[] = [];
    let n = 0;
    const handler = createSessionHandler({
      gateway,
      order: () => ({ ...ORDER, paymentReference: `order-${++n}` }),
      onEvent: (event) => void events.push(event),
    });
    const initiations = () => fake.seen.filter((request) => request.path.endsWith('/initiates')).length;
    /** What `onEvent` was told about the refusal: the gateway's 401s and the token failures. */
    const reports = () =>
      events.filter(
        (event) => event.type === 'gateway' || (event.type === 'internal-error' && event.where === 'token'),
      );
    return { handler, gateway, tokenRequests: () => fake.tokenRequests().length, initiations, reports };
  }

  it('makes one renewal and two initiations for 100 session requests, answers the rest at once, and reports it once', async () => {
    const { handler, tokenRequests, initiations, reports } = refusingGateway();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i += 1) statuses.push((await handler(post(TRANSFER_REQUEST))).status);
    assert.equal(tokenRequests(), 2);
    assert.equal(initiations(), 2);
    assert.ok(
      statuses.every((status) => status >= 500),
      String(statuses),
    );
    assert.equal(reports().length, 1, JSON.stringify(reports()));
  });

  it('tries once more after each back-off period: one renewal per period, 100 concurrent requests or not', async (t) => {
    // The clock stands still unless the test moves it: a slow machine cannot end a period early.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { handler, gateway, tokenRequests, initiations, reports } = refusingGateway({ refusedBackoffMs: 40 });
    await handler(post(TRANSFER_REQUEST));
    await Promise.all(Array.from({ length: 100 }, () => handler(post(TRANSFER_REQUEST))));
    assert.deepEqual([tokenRequests(), initiations(), reports().length], [2, 2, 1]);
    t.mock.timers.tick(60);
    await Promise.all(Array.from({ length: 100 }, () => handler(post(TRANSFER_REQUEST))));
    assert.deepEqual([tokenRequests(), initiations(), reports().length], [3, 4, 2]);
    // The query is held back too: the reconciler and the status handler cannot storm either.
    assert.deepEqual(await gateway.query('order-1'), { kind: 'unverified', reason: 'refused', httpStatus: 401 });
    assert.equal(tokenRequests(), 3);
  });
});

describe('issue 16 item 3: redaction gaps (the gateway client)', () => {
  /** Everything the gateway client knows and must never hand on. */
  const secrets = [SECRET_KEY, PUBLIC_KEY, TOKEN, `${SECRET_KEY}.${PUBLIC_KEY}`];
  /** A secret cut short still gives it away: no 10-character piece of one may survive. */
  const pieces = secrets.flatMap((secret) => [secret, secret.slice(0, 10), encodeURIComponent(secret)]);
  const leaks = (text: string) => pieces.filter((piece) => text.includes(piece));

  it("scrubs the initiation envelope's status and message, redacting before it shortens", async () => {
    for (const echo of [SECRET_KEY, PUBLIC_KEY, TOKEN]) {
      const { gateway } = keyedGateway(() =>
        json(200, {
          status: `PENDING ${'x'.repeat(20)}${echo}`,
          data: { code: 'S20', message: `key ${'y'.repeat(8175)}${echo}`, payments: {} },
        }),
      );
      const outcome = await gateway.initiate({ ...initiation(), paymentType: 'TRANSFER' });
      assert.equal(outcome.kind, 'unconfirmed');
      assert.deepEqual(leaks(JSON.stringify(outcome)), [], JSON.stringify(outcome).slice(0, 200));
    }
  });

  it("scrubs the query answer's code, currency and message", async () => {
    const { gateway } = keyedGateway(() =>
      json(200, {
        status: 'SUCCESS',
        data: {
          code: `S20 ${TOKEN}`,
          message: `for ${SECRET_KEY}.${PUBLIC_KEY}`,
          payments: { paymentReference: 'ORDER-1042', amount: 5000, currency: `NGN ${PUBLIC_KEY}` },
        },
      }),
    );
    const outcome = await gateway.query('ORDER-1042');
    assert.equal(outcome.kind, 'answer');
    assert.deepEqual(leaks(JSON.stringify(outcome)), [], JSON.stringify(outcome));
    assert.equal(outcome.kind === 'answer' && outcome.state, 'PENDING');
  });

  it('redacts with everything it knows through gateway.redact, and shows no secret as a property', async () => {
    const { gateway } = keyedGateway(() => json(401, { message: 'Invalid Authentication Token' }));
    await gateway.initiate(initiation());
    const text = `secret ${SECRET_KEY} public ${PUBLIC_KEY} tokens ${TOKEN} ${encodeURIComponent(TOKEN)} ${JSON.stringify(SECRET_KEY)}`;
    const redacted = gateway.redact(text);
    assert.deepEqual(leaks(redacted), [], redacted);
    assert.match(redacted, /^secret \[redacted\] public \[redacted\] tokens \[redacted\]/);
    // `publicKey` is a property by design (the session handler sends it); the secret key and tokens are not.
    const properties = JSON.stringify(Object.entries(gateway));
    assert.ok(!properties.includes(SECRET_KEY.slice(0, 10)) && !properties.includes(TOKEN.slice(0, 10)), properties);

    const given = createGateway({
      baseUrl: BASE_URL,
      publicKey: PUBLIC_KEY,
      accessToken: 'merchant-token-123',
      fetch: fakeGateway(() => json(500, {})).fetch,
    });
    assert.equal(given.redact('Bearer x merchant-token-123'), 'Bearer [redacted] [redacted]');
  });
});
