import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createGateway,
  createWebhookHandler,
  type QueryOutcome,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from '../../src/server/internal.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { Payment, PaymentStore } from '../../src/server/stores/types.js';
import { settlePayment } from '../../src/server/settlement/settle.js';
import { BASE_URL, fakeGateway, PUBLIC_KEY, queryAnswer, SECRET_KEY, tokenAnswer } from './gateway-fixtures.js';

const WEBHOOK_URL = 'https://shop.test/pay/webhook';
const REFERENCE = 'ORDER-1042';

function pendingPayment(paymentReference = REFERENCE, changes: Partial<Payment> = {}): Payment {
  return {
    paymentReference,
    paymentType: 'TRANSFER',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: 1,
    updatedAt: 1,
    ...changes,
  };
}

function answer(code: string, changes: Partial<Extract<QueryOutcome, { kind: 'answer' }>> = {}): QueryOutcome {
  const state = code === '00' ? 'SUCCESS' : code === 'S12' ? 'FAILED' : 'PENDING';
  return { kind: 'answer', state, code, amount: 5000, currency: 'NGN', message: undefined, ...changes };
}

/** The gateway's notification for `data`, as MINT webhook-events.mdx §7 shows it. */
function notification(data: Record<string, unknown>, itemKey = 'notificationRequestItem') {
  return {
    notificationItems: [
      {
        [itemKey]: {
          eventType: 'transaction',
          eventDate: '2025-03-01 10:15:02',
          eventId: '9c0e1f',
          data: {
            reference: REFERENCE,
            amount: 5000,
            currency: 'NGN',
            code: '00',
            gatewayCode: '00',
            gatewayMessage: 'Successful',
            paymentType: 'TRANSFER',
            fullname: 'Ada Obi',
            email: 'ada@example.ng',
            mobile: '08030000000',
            ...data,
          },
        },
      },
    ],
  };
}

function deliver(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(WEBHOOK_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-expected-ack-reference': 'ACK-77', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function setUp(
  query: (reference: string) => QueryOutcome | Promise<QueryOutcome>,
  options: Partial<WebhookHandlerOptions> = {},
  entries = [pendingPayment()],
) {
  const payments = options.payments ?? createMemoryPaymentStore();
  for (const entry of entries) await payments.insert(entry);
  const paid: Payment[] = [];
  const failed: Payment[] = [];
  const events: WebhookEvent[] = [];
  const queried: string[] = [];
  const handler = createWebhookHandler({
    gateway: {
      query: async (reference) => {
        queried.push(reference);
        return query(reference);
      },
    },
    payments,
    onPaid: (payment) => void paid.push(payment),
    onFailed: (payment) => void failed.push(payment),
    onEvent: (event) => void events.push(event),
    ...options,
  });
  return { handler, payments, paid, failed, events, queried };
}

async function acknowledged(response: Response, ack = 'ACK-77'): Promise<void> {
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ackReference: ack, status: 'received' });
}

describe('createWebhookHandler: verify, then settle once', () => {
  it('re-verifies by query, moves the ledger to SUCCESS, calls onPaid with the payment, and echoes the ack reference', async () => {
    const { handler, payments, paid, queried, events } = await setUp(() => answer('00'));
    await acknowledged(await handler(deliver(notification({}))));
    assert.deepEqual(queried, [REFERENCE]);
    const stored = await payments.get(REFERENCE);
    assert.equal(stored?.state, 'SUCCESS');
    assert.equal(stored?.gatewayCode, '00');
    assert.equal(paid.length, 1);
    // onPaid sees the entry as settled and leased to it; the ledger records the fulfilment after it returned.
    assert.deepEqual(
      { ...paid[0], lease: undefined, dueAt: undefined, fulfilledAt: stored?.fulfilledAt, version: stored?.version },
      { ...stored, lease: undefined, dueAt: undefined },
    );
    assert.deepEqual(
      events.map((event) => event.type),
      ['verified', 'paid', 'fulfilled'],
    );
  });

  it('answers with a reference of its own when X-Expected-Ack-Reference is absent', async () => {
    const { handler } = await setUp(() => answer('00'));
    const request = deliver(notification({}));
    request.headers.delete('x-expected-ack-reference');
    const response = await handler(request);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { ackReference: string; status: string };
    assert.equal(body.status, 'received');
    assert.match(body.ackReference, /^ack-[0-9a-f-]{36}$/);
  });

  it('calls onPaid once for 20 concurrent duplicates, and once for duplicates split across two instances sharing the ledger', async () => {
    const single = await setUp(() => answer('00'));
    const responses = await Promise.all(Array.from({ length: 20 }, () => single.handler(deliver(notification({})))));
    for (const response of responses) await acknowledged(response);
    assert.equal(single.paid.length, 1);

    // Two instances: no shared in-process state, only the ledger's compare-and-set.
    const payments = createMemoryPaymentStore();
    const slowQuery = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return answer('00');
    };
    const a = await setUp(slowQuery, { payments });
    const b = await setUp(slowQuery, { payments }, []);
    const both = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).handler(deliver(notification({})))),
    );
    // One instance claims this interval's query; the other's notifications meanwhile are answered
    // 503 (issue 15 item 6: one query per reference per interval across instances), and delivered again.
    assert.ok(both.some((response) => response.status === 200));
    assert.ok(both.every((response) => response.status === 200 || response.status === 503));
    assert.equal(a.paid.length + b.paid.length, 1);
    assert.equal((await payments.get(REFERENCE))?.state, 'SUCCESS');
    // A later duplicate is answered from the ledger, with no query.
    const queries = a.queried.length + b.queried.length;
    await acknowledged(await a.handler(deliver(notification({}))));
    assert.equal(a.queried.length + b.queried.length, queries);
    assert.equal(a.paid.length + b.paid.length, 1);
  });

  it('never records a forged success: the notification says 00, the query says pending (503: deliver again later)', async () => {
    const { handler, payments, paid, events } = await setUp(() => answer('S20'));
    const response = await handler(deliver(notification({ code: '00', gatewayMessage: 'Successful' })));
    assert.equal(response.status, 503);
    const stored = await payments.get(REFERENCE);
    assert.equal(stored?.state, 'PENDING');
    assert.equal(stored?.gatewayCode, 'S20');
    assert.equal(paid.length, 0);
    assert.ok(!events.some((event) => event.type === 'paid'));
  });

  for (const [name, changes] of [
    ['a smaller amount', { amount: 4000 }],
    ['a larger amount', { amount: 5000.01 }],
    ['another currency', { currency: 'GHS' }],
    ['no amount', { amount: undefined }],
    ['no currency', { currency: undefined }],
    ['SM_10 (approved for part)', { code: 'SM_10', state: 'PENDING', report: 'partial-amount' }],
  ] as const) {
    it(`does not pay ${name}, and fires amount-mismatch`, async () => {
      const { handler, payments, paid, events } = await setUp(() => answer('00', changes as object));
      await acknowledged(await handler(deliver(notification({}))));
      assert.equal((await payments.get(REFERENCE))?.state, 'PENDING');
      assert.equal(paid.length, 0);
      const mismatch = events.find((event) => event.type === 'amount-mismatch');
      assert.ok(mismatch, JSON.stringify(events));
      assert.deepEqual(mismatch.type === 'amount-mismatch' && mismatch.expected, {
        amount: '5000.00',
        currency: 'NGN',
      });
    });
  }

  it('pays "5000.00" against 5000 and a currency in another case', async () => {
    const { handler, paid } = await setUp(() => answer('00', { amount: 5000, currency: 'ngn' }));
    await acknowledged(await handler(deliver(notification({}))));
    assert.equal(paid.length, 1);
  });

  it('moves a failed payment to FAILED and calls onFailed once, never onPaid', async () => {
    const { handler, payments, paid, failed } = await setUp(() => answer('S12'));
    await Promise.all([
      handler(deliver(notification({ code: 'S12' }))),
      handler(deliver(notification({ code: 'S12' }))),
    ]);
    assert.equal((await payments.get(REFERENCE))?.state, 'FAILED');
    assert.equal(failed.length, 1);
    assert.equal(paid.length, 0);
  });

  it('asks the gateway about an unknown reference too, and answers as it says: paid is 200, reported as unmatched-payment', async () => {
    // Issue 15 item 6: it used to be 200 with no query, which told references the ledger holds
    // (answered 503 while pending) from those it does not.
    const { handler, queried, events } = await setUp(() => answer('00'));
    await acknowledged(await handler(deliver(notification({ reference: 'NOT-OURS', externalReference: 'NOR-THIS' }))));
    assert.deepEqual(queried, ['NOT-OURS']);
    assert.deepEqual(events, [
      { type: 'unmatched-payment', paymentReference: 'NOT-OURS', amount: 5000, currency: 'NGN' },
    ]);
  });

  it('finds the reference in data.reference, then data.paymentReference, then data.externalReference', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ reference: 'A-1', paymentReference: 'B-1', externalReference: 'C-1' }, 'A-1'],
      [{ reference: 'UNKNOWN', paymentReference: 'B-1', externalReference: 'C-1' }, 'B-1'],
      [{ reference: 'C-1_SBT_9f2a', externalReference: 'C-1' }, 'C-1'],
    ];
    for (const [data, expected] of cases) {
      const { handler, queried } = await setUp(() => answer('00'), {}, [
        pendingPayment('A-1'),
        pendingPayment('B-1'),
        pendingPayment('C-1'),
      ]);
      await acknowledged(await handler(deliver(notification(data))));
      assert.deepEqual(queried, [expected], JSON.stringify(data));
    }
  });

  it('accepts the NotificationRequestItem capitalisation', async () => {
    const { handler, paid } = await setUp(() => answer('00'));
    await acknowledged(await handler(deliver(notification({}, 'NotificationRequestItem'))));
    assert.equal(paid.length, 1);
  });

  it('answers 503 when the query could not verify, so the gateway delivers again, and settles on a delivery after the interval', async () => {
    let gatewayUp = false;
    let time = 1_000_000;
    const { handler, payments, paid, events } = await setUp(
      () => (gatewayUp ? answer('00') : { kind: 'unverified', reason: 'http-error', httpStatus: 500 }),
      { now: () => time },
    );
    const first = await handler(deliver(notification({})));
    assert.equal(first.status, 503);
    assert.equal((await payments.get(REFERENCE))?.state, 'PENDING');
    assert.deepEqual(events.at(-1), {
      type: 'unverified',
      paymentReference: REFERENCE,
      reason: 'http-error',
      httpStatus: 500,
    });
    gatewayUp = true;
    time += 5_000; // the gateway is asked again once the interval has passed (issue 15 item 6)
    await acknowledged(await handler(deliver(notification({}))));
    assert.equal(paid.length, 1);
  });

  it('answers 503 when the query does not finish within verifyTimeoutMs, even one that ignores its signal', async () => {
    const { handler, paid } = await setUp(() => new Promise<QueryOutcome>(() => {}), { verifyTimeoutMs: 20 });
    const response = await handler(deliver(notification({})));
    assert.equal(response.status, 503);
    assert.equal(paid.length, 0);
  });

  it('answers 503 when the ledger cannot be written, so the verified payment is delivered and settled again', async () => {
    const memory = createMemoryPaymentStore();
    let storeDown = true;
    const flaky: PaymentStore = {
      get: (reference) => memory.get(reference),
      insert: (payment) => memory.insert(payment),
      update: (payment) => {
        if (storeDown) throw new Error('ECONNRESET');
        return memory.update(payment);
      },
      findByIdempotencyKey: (key) => memory.findByIdempotencyKey(key),
      claimDue: (now, limit, holdMs) => memory.claimDue(now, limit, holdMs),
    };
    const { handler, paid, events } = await setUp(() => answer('00'), { payments: flaky });
    const first = await handler(deliver(notification({})));
    assert.equal(first.status, 503);
    assert.equal(paid.length, 0);
    assert.deepEqual(events.at(-1), {
      type: 'internal-error',
      where: 'store',
      paymentReference: REFERENCE,
      detail: 'Error',
    });
    storeDown = false;
    await acknowledged(await handler(deliver(notification({}))));
    assert.equal(paid.length, 1);
  });

  it('answers 503 while onPaid throws, runs it again on a later delivery, and acknowledges once it returned (issue 15 item 2)', async () => {
    let calls = 0;
    let time = 1_000_000;
    const { handler, payments, events } = await setUp(() => answer('00'), {
      now: () => time,
      onPaid: () => {
        calls += 1;
        if (calls === 1) throw new Error('orders DB down: ada@example.ng');
      },
    });
    assert.equal((await handler(deliver(notification({})))).status, 503);
    assert.equal(calls, 1);
    const owed = await payments.get(REFERENCE);
    assert.deepEqual([owed?.state, owed?.fulfilledAt], ['SUCCESS', undefined]);
    assert.deepEqual(
      events.find((event) => event.type === 'internal-error'),
      {
        type: 'internal-error',
        where: 'onPaid',
        paymentReference: REFERENCE,
        detail: 'Error',
      },
    );
    time += 10_000; // the gateway's next delivery, past the webhook's re-query interval
    await acknowledged(await handler(deliver(notification({}))));
    assert.equal(calls, 2);
    time += 10_000;
    await acknowledged(await handler(deliver(notification({}))));
    assert.equal(calls, 2, 'never again after it returned');
  });
});

describe('createWebhookHandler: refuses what is not a notification', () => {
  const refusals: [string, () => Request, number][] = [
    ['GET', () => new Request(WEBHOOK_URL), 405],
    ['text/plain', () => deliver(JSON.stringify(notification({})), { 'content-type': 'text/plain' }), 415],
    ['a body over 64 KB', () => deliver(notification({ padding: 'x'.repeat(70_000) })), 413],
    [
      'a body over 64 KB sent without Content-Length',
      () => streamed(JSON.stringify(notification({ padding: 'x'.repeat(70_000) }))),
      413,
    ],
    ['invalid JSON', () => deliver('{"notificationItems": ['), 400],
    ['an empty body', () => deliver(''), 400],
    ['a JSON array', () => deliver([notification({})]), 400],
    ['no notificationItems', () => deliver({ data: { reference: REFERENCE } }), 400],
    ['an empty notificationItems', () => deliver({ notificationItems: [] }), 400],
    [
      'an item without data',
      () => deliver({ notificationItems: [{ notificationRequestItem: { eventType: 'transaction' } }] }),
      400,
    ],
    ['an item that is a string', () => deliver({ notificationItems: ['ORDER-1042'] }), 400],
  ];
  for (const [name, request, status] of refusals) {
    it(`answers ${status} to ${name}, reaching neither the gateway nor the ledger`, async () => {
      const { handler, queried, payments, paid } = await setUp(() => answer('00'));
      const response = await handler(request());
      assert.equal(response.status, status);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(queried, []);
      assert.equal(paid.length, 0);
      assert.equal((await payments.get(REFERENCE))?.version, 1);
    });
  }

  it('refuses bad options when created', () => {
    const payments = createMemoryPaymentStore();
    const gateway = { query: async () => answer('00') };
    const bad: [string, unknown][] = [
      ['no options', undefined],
      ['no gateway', { payments, onPaid: () => {} }],
      ['no payments', { gateway, onPaid: () => {} }],
      ['a store without update', { gateway, payments: { get: () => undefined, insert: () => true }, onPaid: () => {} }],
      ['no onPaid', { gateway, payments }],
      ['a negative verifyTimeoutMs', { gateway, payments, onPaid: () => {}, verifyTimeoutMs: -1 }],
      ['a negative requeryAfterMs', { gateway, payments, onPaid: () => {}, requeryAfterMs: -1 }],
    ];
    for (const [name, options] of bad) {
      assert.throws(() => createWebhookHandler(options as WebhookHandlerOptions), TypeError, name);
    }
  });
});

describe('createWebhookHandler with createGateway: what onEvent sees', () => {
  it('never a token, a key or a customer detail', async () => {
    const token = 'T0ken+Secret/Value==';
    const fake = fakeGateway((request) =>
      request.path.endsWith('/encrypt/keys')
        ? tokenAnswer(token)
        : queryAnswer('00', { amount: 4000, gatewayMessage: `ok ${token} ada@example.ng` }),
    );
    const gateway = createGateway({
      baseUrl: BASE_URL,
      publicKey: PUBLIC_KEY,
      secretKey: SECRET_KEY,
      fetch: fake.fetch,
    });
    const { handler, events } = await setUp((reference) => gateway.query(reference));
    await handler(deliver(notification({})));
    await handler(deliver(notification({ reference: `UNKNOWN ${token}` })));
    await handler(deliver('{"oops'));
    const text = JSON.stringify(events);
    assert.ok(events.length >= 4, text);
    for (const secret of [token, SECRET_KEY, PUBLIC_KEY, 'ada@example.ng', 'Ada Obi', '08030000000']) {
      assert.ok(!text.includes(secret), `${secret} reached onEvent: ${text}`);
    }
  });
});

describe('settlePayment: one transition', () => {
  it('lets exactly one of 20 concurrent settlements of the same entry win and call onPaid', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(pendingPayment());
    const entry = (await payments.get(REFERENCE))!;
    const paid: Payment[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        settlePayment(entry, answer('00') as Extract<QueryOutcome, { kind: 'answer' }>, {
          payments,
          onPaid: (p) => void paid.push(p),
          emit: () => {},
        }),
      ),
    );
    assert.equal(paid.length, 1);
    assert.equal(results.filter((result) => result.kind === 'settled').length, 1);
    assert.equal(results.filter((result) => result.kind === 'already-settled').length, 19);
  });

  it('re-reads after losing a race to a mere check, and still settles', async () => {
    const inner = createMemoryPaymentStore();
    await inner.insert(pendingPayment());
    const stale = (await inner.get(REFERENCE))!;
    // Someone recorded a check (version 2) after this request read the entry.
    await inner.update({ ...stale, checkedAt: 5, gatewayCode: 'S20' });
    const paid: Payment[] = [];
    const result = await settlePayment(stale, answer('00') as Extract<QueryOutcome, { kind: 'answer' }>, {
      payments: inner,
      onPaid: (p) => void paid.push(p),
      emit: () => {},
    });
    assert.equal(result.kind, 'settled');
    assert.equal(paid.length, 1);
    assert.equal(paid[0]!.version, 4); // settled at 3, then leased for onPaid at 4
  });

  it('works with a store whose methods answer synchronously or asynchronously', async () => {
    const memory = createMemoryPaymentStore();
    const asyncStore: PaymentStore = {
      get: async (reference) => memory.get(reference),
      insert: async (payment) => memory.insert(payment),
      update: async (payment) => memory.update(payment),
      findByIdempotencyKey: async (key) => memory.findByIdempotencyKey(key),
      claimDue: async (now, limit, holdMs) => memory.claimDue(now, limit, holdMs),
    };
    await asyncStore.insert(pendingPayment());
    const paid: Payment[] = [];
    const entry = (await asyncStore.get(REFERENCE))!;
    const result = await settlePayment(entry, answer('00') as Extract<QueryOutcome, { kind: 'answer' }>, {
      payments: asyncStore,
      onPaid: (p) => void paid.push(p),
      emit: () => {},
    });
    assert.equal(result.kind, 'settled');
    assert.equal(paid.length, 1);
  });
});

/** A POST whose body arrives as a stream, with no Content-Length to refuse it early. */
function streamed(text: string): Request {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
      controller.close();
    },
  });
  return new Request(WEBHOOK_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
}
