/**
 * `createStatusHandler({ payments, gateway, statusSecret, onPaid })`: answers from the ledger,
 * re-queries a stale PENDING payment once per interval, and settles it through the webhook's one
 * transition, so `onPaid` runs once per reference whichever path wins.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient } from 'redis';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import {
  createGateway,
  createMemoryPaymentStore,
  createSessionHandler,
  createStatusHandler,
  createWebhookHandler,
  type Gateway,
  type Payment,
  type PaymentStore,
  type QueryOutcome,
  type StatusEvent,
  type WebhookEvent,
} from '../../src/server/internal.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { startRedisServer } from './redis-server.js';
import {
  delay,
  ORDER,
  post,
  readError,
  STATUS_SECRET,
  statusBody,
  statusTokenFor,
  USSD_REQUEST,
} from './server-fixtures.js';

const STATUS_URL = 'https://shop.test/pay/status';
const REFERENCE = 'order-77';

function entry(overrides: Partial<Payment> = {}): Payment {
  const longAgo = Date.now() - 60_000;
  return {
    paymentReference: REFERENCE,
    paymentType: 'USSD',
    amount: '2500.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: longAgo,
    updatedAt: longAgo,
    ...overrides,
  };
}

async function poll(reference = REFERENCE, token?: string): Promise<Request> {
  const statusToken = token ?? (await statusTokenFor(reference));
  return new Request(`${STATUS_URL}?paymentReference=${encodeURIComponent(reference)}&statusToken=${statusToken}`);
}

/** A gateway whose query answers `answer` after `ms`, counting the queries. */
function countingGateway(answer: QueryOutcome, ms = 20) {
  const queried: string[] = [];
  const gateway: Pick<Gateway, 'query'> = {
    async query(reference) {
      queried.push(reference);
      await delay(ms);
      return structuredClone(answer);
    },
  };
  return { gateway, queried };
}

const PAID: QueryOutcome = {
  kind: 'answer',
  state: 'SUCCESS',
  code: '00',
  amount: 2500,
  currency: 'NGN',
  message: 'Approved',
};
const STILL_PENDING: QueryOutcome = {
  kind: 'answer',
  state: 'PENDING',
  code: 'S20',
  amount: 2500,
  currency: 'NGN',
  message: 'Pending',
};

describe('createStatusHandler({ payments })', () => {
  it('answers the ledger’s state, amount and currency, and 404 for a reference it lacks', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry({ createdAt: Date.now() }));
    const { gateway, queried } = countingGateway(PAID);
    const handler = createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, onPaid: () => {} });
    const response = await handler(await poll());
    assert.equal(response.status, 200);
    assert.deepEqual(await statusBody(response), { status: 'PENDING', amount: '2500.00', currency: 'NGN' });
    assert.deepEqual(queried, [], 'a payment initiated just now is not re-queried');
    await readError(await handler(await poll('order-unknown')), 404, 'not_found');
  });

  it('answers a stale or forged token 404 without reading the ledger', async () => {
    let reads = 0;
    const inner = createMemoryPaymentStore();
    await inner.insert(entry());
    const payments: PaymentStore = { ...inner, get: (reference) => (reads++, inner.get(reference)) };
    const { gateway, queried } = countingGateway(PAID);
    const handler = createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, onPaid: () => {} });
    const otherReferences = await statusTokenFor('order-78');
    const [payload, signature] = (await statusTokenFor(REFERENCE)).split('.');
    for (const token of [
      otherReferences,
      'forged',
      `${payload}.${signature?.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      '',
    ]) {
      await readError(await handler(await poll(REFERENCE, token)), 404, 'not_found');
    }
    const otherSecret = createStatusHandler({
      statusSecret: 'another-secret-0123456789abcdef-xyz',
      payments,
      gateway,
      onPaid: () => {},
    });
    await readError(await otherSecret(await poll()), 404, 'not_found');
    assert.equal(reads, 0);
    assert.deepEqual(queried, []);
  });

  it('re-queries a stale PENDING payment once for 20 concurrent polls, across two instances sharing the ledger', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    const { gateway, queried } = countingGateway(STILL_PENDING, 50);
    const options = { statusSecret: STATUS_SECRET, payments, gateway, onPaid: () => {}, recheckAfterMs: 60_000 };
    const instances = [createStatusHandler(options), createStatusHandler(options)];
    const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => instances[i % 2]!(await poll())));
    for (const response of answers)
      assert.deepEqual(await statusBody(response), { status: 'PENDING', amount: '2500.00', currency: 'NGN' });
    assert.equal(queried.length, 1);
    // The interval has not passed: the next polls read the ledger only.
    await Promise.all(Array.from({ length: 5 }, async () => instances[0]!(await poll())));
    assert.equal(queried.length, 1);
    const stored = await payments.get(REFERENCE);
    assert.equal(stored?.state, 'PENDING');
    assert.equal(stored?.gatewayCode, 'S20');
    assert.ok((stored?.checkedAt ?? 0) > stored!.createdAt);
  });

  it('settles a paid payment on the poll that re-queries it, runs onPaid once, and answers SUCCESS', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    const paid: Payment[] = [];
    const events: StatusEvent[] = [];
    const { gateway, queried } = countingGateway(PAID);
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      payments,
      gateway,
      onPaid: (payment) => void paid.push(payment),
      onEvent: (event) => void events.push(event),
      recheckAfterMs: 0,
    });
    const first = await Promise.all(Array.from({ length: 10 }, async () => handler(await poll())));
    const statuses = await Promise.all(
      first.map(async (response) => ((await response.json()) as { status: string }).status),
    );
    assert.ok(statuses.includes('SUCCESS'), statuses.join());
    assert.deepEqual(await statusBody(await handler(await poll())), {
      status: 'SUCCESS',
      amount: '2500.00',
      currency: 'NGN',
    });
    assert.equal(paid.length, 1);
    assert.equal(paid[0]?.state, 'SUCCESS');
    assert.equal(paid[0]?.amount, '2500.00');
    assert.ok(queried.length >= 1);
    assert.deepEqual(
      events.filter((event) => event.type === 'paid'),
      [{ type: 'paid', paymentReference: REFERENCE, amount: '2500.00', currency: 'NGN' }],
    );
  });

  it('never settles an answer for another amount, nor an unverified one, and reports them', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    await payments.insert(entry({ paymentReference: 'order-78' }));
    const paid: Payment[] = [];
    const events: StatusEvent[] = [];
    const answers: Record<string, QueryOutcome> = {
      [REFERENCE]: { ...PAID, amount: 25 } as QueryOutcome,
      'order-78': { kind: 'unverified', reason: 'timeout' },
    };
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      payments,
      gateway: { query: async (reference) => answers[reference]! },
      onPaid: (payment) => void paid.push(payment),
      onEvent: (event) => void events.push(event),
      recheckAfterMs: 0,
    });
    for (const reference of [REFERENCE, 'order-78']) {
      assert.equal(((await (await handler(await poll(reference))).json()) as { status: string }).status, 'PENDING');
    }
    assert.deepEqual(paid, []);
    assert.deepEqual(
      events.map((event) => event.type),
      ['verified', 'amount-mismatch', 'needs-review', 'unverified'],
    );
  });

  it('answers PENDING without waiting for a slow re-query, which still settles the payment', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    const paid: Payment[] = [];
    let settled!: () => void;
    const onPaidRan = new Promise<void>((resolve) => (settled = resolve));
    // The query answers long after the handler's 40 ms, however slow the machine.
    const { gateway } = countingGateway(PAID, 1_000);
    const onPaid = (payment: Payment) => {
      paid.push(payment);
      settled();
    };
    const handler = createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, onPaid, timeoutMs: 40 });
    assert.equal(((await (await handler(await poll())).json()) as { status: string }).status, 'PENDING');
    await onPaidRan;
    assert.equal((await payments.get(REFERENCE))?.state, 'SUCCESS');
    assert.equal(paid.length, 1);
  });

  it('does not re-query without onPaid: only a path that runs the merchant’s hook may settle', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    const { gateway, queried } = countingGateway(PAID);
    const handler = createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, recheckAfterMs: 0 });
    assert.equal(((await (await handler(await poll())).json()) as { status: string }).status, 'PENDING');
    assert.deepEqual(queried, []);
  });

  it('refuses options that give both or neither of lookup and payments, or a half-made ledger, with a TypeError', () => {
    const payments = createMemoryPaymentStore();
    const { gateway } = countingGateway(PAID);
    const lookup = () => ({ status: 'PENDING' as const });
    assert.throws(
      () => createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, lookup }),
      /exactly one of payments and lookup/,
    );
    assert.throws(() => createStatusHandler({ statusSecret: STATUS_SECRET }), /exactly one of payments/);
    assert.throws(() => createStatusHandler({ statusSecret: STATUS_SECRET, payments }), /gateway/);
    assert.throws(
      () => createStatusHandler({ statusSecret: STATUS_SECRET, payments: { get: payments.get } as never, gateway }),
      /update\(\)/,
    );
    assert.throws(
      () => createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, onPaid: 'yes' as never }),
      /onPaid/,
    );
    assert.throws(
      () => createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, recheckAfterMs: Number.NaN }),
      /recheckAfterMs/,
    );
  });
});

describe('the status re-query and the webhook racing for one payment', () => {
  it('runs onPaid exactly once per reference whichever path wins', async () => {
    const payments = createMemoryPaymentStore();
    const paid = new Map<string, number>();
    const onPaid = (payment: Payment) =>
      void paid.set(payment.paymentReference, (paid.get(payment.paymentReference) ?? 0) + 1);
    const winners: string[] = [];
    let webhookDelayMs = 0;
    let webhook: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
    const sandbox = createSandboxGateway({
      webhookUrl: 'https://shop.test/pay/webhook',
      fetch: async (input, init) => {
        await delay(webhookDelayMs);
        return webhook(new Request(input, init));
      },
      webhookRetryDelaysMs: [10, 10, 10],
    });
    const gateway = createGateway({
      baseUrl: 'https://sandbox.test',
      publicKey: SANDBOX_PUBLIC_KEY,
      secretKey: SANDBOX_SECRET_KEY,
      fetch: sandbox.fetch,
    });
    webhook = createWebhookHandler({
      gateway,
      payments,
      onPaid,
      onEvent: (event: WebhookEvent) => void (event.type === 'paid' && winners.push('webhook')),
    });
    const status = createStatusHandler({
      statusSecret: STATUS_SECRET,
      payments,
      gateway,
      onPaid,
      onEvent: (event) => void (event.type === 'paid' && winners.push('status')),
      recheckAfterMs: 0,
    });
    const session = createSessionHandler({
      gateway,
      payments,
      statusSecret: STATUS_SECRET,
      order: () => ({ ...ORDER, paymentReference: `race-${crypto.randomUUID()}` }),
    });

    const references: string[] = [];
    for (let round = 0; round < 8; round += 1) {
      const body = (await (await session(post(USSD_REQUEST))).json()) as {
        order: { paymentReference: string; statusToken: string };
      };
      const { paymentReference, statusToken } = body.order;
      references.push(paymentReference);
      // "The customer paid": the sandbox posts the webhook while the page keeps polling. Every
      // other round the webhook is slow to arrive, so each path gets to win.
      webhookDelayMs = round % 2 === 0 ? 0 : 30;
      sandbox.setStatus(paymentReference, 'SUCCESS');
      const polls = await Promise.all(
        Array.from({ length: 4 }, async () => status(await poll(paymentReference, statusToken))),
      );
      for (const response of polls) assert.equal(response.status, 200);
      await sandbox.webhooksSettled();
      const final = await statusBody(await status(await poll(paymentReference, statusToken)));
      assert.deepEqual(final, { status: 'SUCCESS', amount: ORDER.amount, currency: ORDER.currency });
    }
    for (const reference of references) assert.equal(paid.get(reference), 1, `onPaid once for ${reference}`);
    assert.equal(winners.length, references.length, `one paid event per payment (${winners.join(', ')})`);
    sandbox.close();
  });
});

describe('the status re-query on a ledger in Redis, two instances', { timeout: 60_000 }, () => {
  it('asks the gateway once for 20 concurrent polls spread over two instances with their own Redis clients', async () => {
    const redis = await startRedisServer();
    const clients: { destroy(): void }[] = [];
    try {
      const connect = async () => {
        const client = createClient({ url: redis.url });
        client.on('error', () => {});
        clients.push(client);
        return client.connect();
      };
      const prefix = `status-${process.pid}:`;
      const ledgers = [
        createRedisStores(await connect(), { prefix }).payments,
        createRedisStores(await connect(), { prefix }).payments,
      ];
      assert.equal(await ledgers[0]!.insert(entry()), true);
      const paid: Payment[] = [];
      const { gateway, queried } = countingGateway(PAID, 50);
      const instances = ledgers.map((payments) =>
        createStatusHandler({
          statusSecret: STATUS_SECRET,
          payments,
          gateway,
          onPaid: (payment) => void paid.push(payment),
          recheckAfterMs: 60_000,
        }),
      );
      const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => instances[i % 2]!(await poll())));
      for (const response of answers) assert.equal(response.status, 200);
      assert.equal(queried.length, 1);
      // onPaid runs in the background of the poll that settled it (issue 15): wait for it to finish.
      for (let wait = 0; wait < 200 && (await ledgers[0]!.get(REFERENCE))?.fulfilledAt === undefined; wait += 1)
        await delay(10);
      assert.equal(paid.length, 1);
      assert.deepEqual(await statusBody(await instances[1]!(await poll())), {
        status: 'SUCCESS',
        amount: '2500.00',
        currency: 'NGN',
      });
    } finally {
      for (const client of clients) client.destroy();
      await redis.stop();
    }
  });
});
