// Issue 34: the one compare-and-set writer of an entry's moves (src/server/ledger/write.ts), against
// the memory ledger and a real SQLite file. Another writer is made to land between the writer's
// read and its write (through the same store), so the race is real: the writer reads again and
// applies its move to what the other wrote, and gives up after its bound, never overwriting.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Payment } from '../../src/server/ledger/entry.js';
import { writeMove, type CasLedger } from '../../src/server/ledger/write.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import type { PaymentStore } from '../../src/server/stores/types.js';

const T0 = Date.now();
const MIN = 60_000;

function paidEntry(paymentReference: string): Payment {
  return {
    paymentReference,
    paymentType: 'USSD',
    amount: '5000.00',
    currency: 'NGN',
    state: 'SUCCESS',
    version: 1,
    createdAt: T0,
    updatedAt: T0,
    gatewayCode: '00',
    dueAt: T0,
  };
}

/**
 * The store, with another writer's `race` landing (a real compare-and-set on the same store) before
 * each of the first `times` writes of the writer under test; how many writes it tried.
 */
function raced(store: PaymentStore, times: number, race: (entry: Payment) => Payment) {
  const seen = { writes: 0 };
  const ledger: CasLedger = {
    get: (reference) => store.get(reference),
    async update(next) {
      seen.writes += 1;
      if (seen.writes <= times) {
        const current = (await store.get(next.paymentReference))!;
        assert.equal(await store.update(race(current)), true);
      }
      return store.update(next);
    },
  };
  return { ledger, seen };
}

const checked = (entry: Payment): Payment => ({ ...entry, checkedAt: (entry.checkedAt ?? T0) + 1 });

const tmp = mkdtempSync(join(tmpdir(), 'ledger-write-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const ledgers: [string, () => { payments: PaymentStore; close(): void }][] = [
  ['memory', () => ({ payments: createMemoryPaymentStore(), close() {} })],
  ['SQLite', () => createSqliteStores(join(tmp, `ledger-${Math.random().toString(36).slice(2)}.db`))],
];

for (const [name, open] of ledgers) {
  describe(`writeMove on the ${name} ledger`, () => {
    it('writes a move by compare-and-set: the entry before and after, version + 1', async () => {
      const { payments, close } = open();
      await payments.insert(paidEntry('W-1'));
      const written = await writeMove(payments, 'W-1', { type: 'lease-taken', at: T0, owner: 'me', until: T0 + MIN });
      assert.equal(written.kind, 'written');
      const stored = await payments.get('W-1');
      assert.deepEqual(stored?.lease, { owner: 'me', until: T0 + MIN });
      assert.equal(stored?.version, 2);
      assert.deepEqual(written.kind === 'written' && written.after, stored);
      close();
    });

    it('reads again after a lost race and applies the move to what the other writer wrote', async () => {
      const { payments, close } = open();
      await payments.insert(paidEntry('W-2'));
      const { ledger, seen } = raced(payments, 2, checked);
      const entry = (await payments.get('W-2'))!;
      const written = await writeMove(ledger, entry, { type: 'lease-taken', at: T0, owner: 'me', until: T0 + MIN });
      assert.equal(written.kind, 'written');
      assert.equal(seen.writes, 3);
      const stored = (await payments.get('W-2'))!;
      assert.equal(stored.version, 4, 'two writes of the other writer, then this one');
      assert.equal(stored.checkedAt, T0 + 2, 'what the other writer wrote is kept');
      assert.equal(stored.lease?.owner, 'me');
      assert.equal(stored.fulfilAttempts, 1);
      close();
    });

    it('gives up after its bound, the entry as the other writer left it', async () => {
      const { payments, close } = open();
      await payments.insert(paidEntry('W-3'));
      const { ledger, seen } = raced(payments, 10, checked);
      const written = await writeMove(ledger, 'W-3', { type: 'fulfilled', at: T0 }, { tries: 3 });
      assert.equal(written.kind, 'gave-up');
      assert.equal(written.kind === 'gave-up' && written.why, 'tries');
      assert.equal(seen.writes, 3);
      const stored = (await payments.get('W-3'))!;
      assert.equal(stored.fulfilledAt, undefined);
      assert.equal(stored.version, 4);
      close();
    });

    it('writes nothing when, read again, the move no longer applies', async () => {
      const { payments, close } = open();
      await payments.insert(paidEntry('W-4'));
      // Another caller takes the lease first: this one's is not taken over a live lease.
      const { ledger } = raced(payments, 1, (entry) => ({ ...entry, lease: { owner: 'you', until: T0 + MIN } }));
      const written = await writeMove(ledger, 'W-4', { type: 'lease-taken', at: T0, owner: 'me', until: T0 + MIN });
      assert.equal(written.kind, 'not-applicable');
      const stored = (await payments.get('W-4'))!;
      assert.equal(stored.lease?.owner, 'you');
      assert.equal(stored.version, 2);
      close();
    });

    it('says missing for a reference the ledger does not hold', async () => {
      const { payments, close } = open();
      assert.deepEqual(await writeMove(payments, 'W-none', { type: 'off-sweep' }), { kind: 'missing' });
      close();
    });

    it('a move that need not land is not retried', async () => {
      const { payments, close } = open();
      await payments.insert(paidEntry('W-5'));
      const { ledger, seen } = raced(payments, 10, checked);
      const written = await writeMove(ledger, 'W-5', { type: 'query-claimed', at: T0 }, { mustLand: () => false });
      assert.equal(written.kind === 'gave-up' && written.why, 'conflict');
      assert.equal(seen.writes, 1);
      close();
    });
  });
}

describe('writeMove with a store that throws', () => {
  it('reports the error and, told to, gives up at once', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(paidEntry('T-1'));
    const reported: unknown[] = [];
    const ledger: CasLedger = {
      get: (reference) => payments.get(reference),
      update: () => {
        throw new Error('disk full');
      },
    };
    const written = await writeMove(
      ledger,
      'T-1',
      { type: 'fulfilled', at: T0 },
      { onThrow: 'give-up', report: (error) => reported.push(error) },
    );
    assert.equal(written.kind === 'gave-up' && written.why, 'store');
    assert.equal(reported.length, 1);
    assert.equal((await payments.get('T-1'))?.version, 1);
  });
});
