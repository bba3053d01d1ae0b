// Issue 15 defect 6 (enumeration): the webhook's answer follows what the gateway says about the
// reference, never whether the ledger holds it, so references cannot be probed through it. Money the
// gateway confirms for a reference the ledger does not hold is reported as `unmatched-payment`.
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
import type { Payment } from '../../src/server/stores/types.js';
import { BASE_URL, fakeGateway, PUBLIC_KEY, queryAnswer, SECRET_KEY, tokenAnswer } from './gateway-fixtures.js';
import { answer, countingGateway, ledgerEntry, notify } from './webhook-fixtures.js';

const KNOWN = 'ORDER-3001';
const UNKNOWN = 'ORDER-3002';

async function setUp(
  answerFor: (reference: string) => QueryOutcome,
  entries: Payment[],
  options: Partial<WebhookHandlerOptions> = {},
) {
  let time = 1_000_000;
  const payments = createMemoryPaymentStore();
  for (const entry of entries) await payments.insert(entry);
  const gateway = countingGateway(answerFor);
  const events: WebhookEvent[] = [];
  const handler = createWebhookHandler({
    gateway,
    payments,
    onPaid: () => {},
    onEvent: (event) => void events.push(event),
    now: () => time,
    ...options,
  });
  return { handler, gateway, events, payments, advance: (ms: number) => void (time += ms) };
}

/** Status, headers and body, the body's ack reference aside (the gateway chose it). */
async function seen(response: Response) {
  const text = await response.text();
  return {
    status: response.status,
    headers: [...response.headers],
    body: text.replace(/"ackReference":"[^"]*"/, '"ackReference":"…"'),
  };
}

describe('the webhook answers alike for references the ledger holds and those it does not (issue 15, defect 6)', () => {
  it('pending in the ledger, or unknown to it, while the gateway says pending: the same 503, body and headers', async () => {
    const { handler } = await setUp(() => answer('S20'), [ledgerEntry(KNOWN)]);
    const known = await seen(await handler(notify(KNOWN)));
    const unknown = await seen(await handler(notify(UNKNOWN)));
    assert.equal(known.status, 503);
    assert.deepEqual(unknown, known);
    // And again within the interval, answered without asking the gateway.
    assert.deepEqual(await seen(await handler(notify(UNKNOWN))), known);
    assert.deepEqual(await seen(await handler(notify(KNOWN))), known);
  });

  it('an unknown reference the gateway does not know (S404) gets the same 503 as a pending one', async () => {
    const { handler } = await setUp(
      (reference) => (reference === KNOWN ? answer('S20') : answer('S404', { report: 'no-data' })),
      [ledgerEntry(KNOWN)],
    );
    assert.deepEqual(await seen(await handler(notify(UNKNOWN))), await seen(await handler(notify(KNOWN))));
  });

  it('settled and fulfilled in the ledger, or unknown to it and paid says the gateway: both 200, same body and headers', async () => {
    const settled = ledgerEntry(KNOWN, {
      state: 'SUCCESS',
      gatewayCode: '00',
      checkedAt: 999_000,
      fulfilledAt: 999_000,
    });
    const { handler } = await setUp(() => answer('00'), [settled]);
    const known = await seen(await handler(notify(KNOWN)));
    const unknown = await seen(await handler(notify(UNKNOWN)));
    assert.equal(known.status, 200);
    assert.deepEqual(unknown, known);
    assert.deepEqual(await seen(await handler(notify(UNKNOWN))), known, 'within the interval, from the last verdict');
  });

  it('asks the gateway about an unknown reference once per interval too', async () => {
    const { handler, gateway, advance } = await setUp(() => answer('S20'), []);
    await Promise.all(Array.from({ length: 200 }, () => handler(notify(UNKNOWN))));
    for (let i = 0; i < 200; i += 1) await handler(notify(UNKNOWN));
    assert.deepEqual(gateway.queries, [UNKNOWN]);
    advance(5_000);
    await handler(notify(UNKNOWN));
    assert.deepEqual(gateway.queries, [UNKNOWN, UNKNOWN]);
  });

  it('caps queries for every reference, held or not (queriesPerSecond, default 5): beyond it, the 503 a pending payment gets', async () => {
    const { handler, gateway, events, advance } = await setUp(() => answer('00'), [ledgerEntry(KNOWN)]);
    const pendingAnswer = await seen(
      await (await setUp(() => answer('S20'), [ledgerEntry(KNOWN)])).handler(notify(KNOWN)),
    );
    const references = Array.from({ length: 8 }, (_, i) => `GUESS-${i}`);
    const answers = await Promise.all(references.map(async (reference) => seen(await handler(notify(reference)))));
    assert.equal(gateway.queries.length, 5);
    assert.equal(answers.filter((seenAnswer) => seenAnswer.status === 200).length, 5);
    for (const refused of answers.filter((seenAnswer) => seenAnswer.status !== 200))
      assert.deepEqual(refused, pendingAnswer);
    assert.equal(
      events.filter((event) => event.type === 'webhook-ignored' && event.reason === 'query-limit').length,
      3,
    );
    // A reference the ledger holds takes from the same budget, and is held back alike (issue 24, defect 9).
    assert.deepEqual(await seen(await handler(notify(KNOWN))), pendingAnswer);
    advance(1_000);
    await Promise.all(references.map((reference) => handler(notify(reference))));
    assert.equal(gateway.queries.length, 5 + 3, 'the three refused, and nothing remembered within the interval');
    assert.equal((await handler(notify(KNOWN))).status, 200);
    assert.equal(gateway.queries.length, 5 + 3 + 1);
  });

  it('honours queriesPerSecond', async () => {
    const { handler, gateway } = await setUp(() => answer('S20'), [], { queriesPerSecond: 1 });
    await Promise.all(['GUESS-1', 'GUESS-2', 'GUESS-3'].map((reference) => handler(notify(reference))));
    assert.equal(gateway.queries.length, 1);
  });

  it('paid but not yet fulfilled (onPaid owed, and it throws again): 503, so the gateway delivers again', async () => {
    const owed = ledgerEntry(KNOWN, { state: 'SUCCESS', gatewayCode: '00', fulfilAttempts: 1, dueAt: 1_000_500 });
    const onPaid = () => {
      throw new Error('orders DB still down');
    };
    const { handler } = await setUp(() => answer('00'), [owed], { onPaid });
    assert.equal((await handler(notify(KNOWN))).status, 503);
  });

  it('re-queries a FAILED entry (at most once per interval), for a late success', async () => {
    const failed = ledgerEntry(KNOWN, { state: 'FAILED', gatewayCode: 'S12' });
    const { handler, gateway } = await setUp(() => answer('S12'), [failed]);
    assert.equal((await handler(notify(KNOWN))).status, 200);
    assert.equal((await handler(notify(KNOWN))).status, 200);
    assert.deepEqual(gateway.queries, [KNOWN]);
  });
});

describe('unmatched-payment: money the gateway confirms for a reference the ledger does not hold', () => {
  it('is reported once per query with the reference, amount and currency, never a secret, and answered 200', async () => {
    const token = 'T0ken+Secret/Value==';
    const fake = fakeGateway((request) =>
      request.path.endsWith('/encrypt/keys')
        ? tokenAnswer(token)
        : queryAnswer('00', { amount: 7500, gatewayMessage: `ok ${token}` }, UNKNOWN),
    );
    const gateway = createGateway({
      baseUrl: BASE_URL,
      publicKey: PUBLIC_KEY,
      secretKey: SECRET_KEY,
      fetch: fake.fetch,
    });
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler({
      gateway,
      payments: createMemoryPaymentStore(),
      onPaid: () => {},
      onEvent: (event) => void events.push(event),
    });
    assert.equal((await handler(notify(UNKNOWN))).status, 200);
    assert.equal((await handler(notify(UNKNOWN))).status, 200);
    assert.deepEqual(
      events.filter((event) => event.type === 'unmatched-payment'),
      [{ type: 'unmatched-payment', paymentReference: UNKNOWN, amount: 7500, currency: 'NGN' }],
    );
    const text = JSON.stringify(events);
    for (const secret of [token, SECRET_KEY, PUBLIC_KEY, 'ada@example.ng'])
      assert.ok(!text.includes(secret), `${secret} reached onEvent: ${text}`);
  });
});
