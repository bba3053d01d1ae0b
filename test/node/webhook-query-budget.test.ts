// Issue 24, defects 8 and 9, as an attacker meets them:
// - 8: one notification may name 50 payments, and references the ledger holds had no query budget:
//   ten requests naming 50 held references each made 500 gateway queries. Every query now takes
//   from one budget: at most `queriesPerRequest` (5) per request and `queriesPerSecond` (5) a second.
// - 9: once the budget for unknown references was spent, an unknown reference was answered at once
//   while a held one waited for its query: 10 of 10 held references found among 20 guesses by the
//   answer time alone. Held and unknown now take the same path and budget: the same status, the
//   same number of gateway queries, answer times that do not separate them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWebhookHandler, type QueryOutcome } from '../../src/server/internal.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import { WEBHOOK_URL, answer, ledgerEntry, notify } from './webhook-fixtures.js';

const GATEWAY_DELAY_MS = 20;

/** The gateway: pending for the references it knows, "No transaction found" (unverified, 500) for the rest, after a delay. */
function slowGateway(known: Set<string>) {
  const queries: string[] = [];
  return {
    queries,
    query: async (reference: string): Promise<QueryOutcome> => {
      queries.push(reference);
      await new Promise((resolve) => setTimeout(resolve, GATEWAY_DELAY_MS));
      return known.has(reference) ? answer('S20') : { kind: 'unverified', reason: 'http-error', httpStatus: 500 };
    },
  };
}

/** One notification naming every reference in `references`, as the gateway posts a batch. */
function notifyMany(references: string[]): Request {
  const items = references.map((reference) => ({
    notificationRequestItem: { eventType: 'transaction', data: { reference, code: '00' } },
  }));
  return new Request(WEBHOOK_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ notificationItems: items }),
  });
}

async function shop(held: string[]) {
  const clock = { time: 1_000_000 };
  const payments = createMemoryPaymentStore();
  for (const reference of held) await payments.insert(ledgerEntry(reference, { initiation: 'started' }));
  const gateway = slowGateway(new Set(held));
  const handler = createWebhookHandler({ gateway, payments, onPaid: () => {}, now: () => clock.time });
  return { clock, gateway, handler };
}

describe('the webhook bounds its gateway queries for held references too (issue 24, defect 8)', () => {
  it('10 notifications of 50 held references at once make at most 5 queries, each item asked for again (503)', async () => {
    const held = Array.from({ length: 500 }, (_, i) => `ORDER-${5000 + i}`);
    const { gateway, handler } = await shop(held);
    const batches = Array.from({ length: 10 }, (_, i) => held.slice(i * 50, i * 50 + 50));
    const responses = await Promise.all(batches.map((batch) => handler(notifyMany(batch))));
    assert.ok(responses.every((response) => response.status === 503));
    assert.ok(gateway.queries.length <= 5, `${gateway.queries.length} gateway queries for 10 requests`);
  });

  it('one a second, each of 50 held references: at most 5 queries per request', async () => {
    const held = Array.from({ length: 500 }, (_, i) => `ORDER-${6000 + i}`);
    const { clock, gateway, handler } = await shop(held);
    const perRequest: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const before = gateway.queries.length;
      assert.equal((await handler(notifyMany(held.slice(i * 50, i * 50 + 50)))).status, 503);
      perRequest.push(gateway.queries.length - before);
      clock.time += 1_000;
    }
    assert.ok(
      perRequest.every((count) => count <= 5),
      `queries per request: ${perRequest}`,
    );
  });
});

describe('held and unknown references take the same path and budget (issue 24, defect 9)', () => {
  // Twenty guesses, every other one held, so a busy machine slows both kinds alike.
  const guesses = Array.from({ length: 20 }, (_, i) => `ORDER-${7000 + i}`);
  const held = guesses.filter((_, i) => i % 2 === 0);

  /** Each guess's status, gateway queries and answer time, sent one after another (`gap` ms of the clock apart). */
  async function probe(gap: number, spendFirst: boolean) {
    const { clock, gateway, handler } = await shop(held);
    if (spendFirst) await handler(notifyMany(Array.from({ length: 5 }, (_, i) => `SPEND-${i}`)));
    const seen: { held: boolean; status: number; queries: number; ms: number }[] = [];
    for (const [i, reference] of guesses.entries()) {
      const before = gateway.queries.length;
      const started = performance.now();
      const response = await handler(notify(reference));
      seen.push({
        held: i % 2 === 0,
        status: response.status,
        queries: gateway.queries.length - before,
        ms: performance.now() - started,
      });
      clock.time += gap;
    }
    return seen;
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  for (const [name, gap, spendFirst] of [
    ['with the budget spent first, as the attack did', 0, true],
    ['with budget to spare (one guess a second)', 1_000, false],
  ] as const) {
    it(`20 guesses, 10 held, ${name}: the same status and queries, and answer times that do not separate them`, async () => {
      const seen = await probe(gap, spendFirst);
      const [ofHeld, ofUnknown] = [seen.filter((guess) => guess.held), seen.filter((guess) => !guess.held)];
      assert.deepEqual(new Set(seen.map((guess) => guess.status)), new Set([503]));
      assert.deepEqual(
        new Set(ofHeld.map((guess) => guess.queries)),
        new Set(ofUnknown.map((guess) => guess.queries)),
        JSON.stringify(seen),
      );
      assert.equal(new Set(seen.map((guess) => guess.queries)).size, 1, 'every guess made as many gateway queries');
      const apart = Math.abs(median(ofHeld.map((guess) => guess.ms)) - median(ofUnknown.map((guess) => guess.ms)));
      assert.ok(
        apart < GATEWAY_DELAY_MS / 2,
        `median answer times ${apart.toFixed(1)} ms apart: ${JSON.stringify(seen.map((guess) => Math.round(guess.ms)))}`,
      );
    });
  }
});
