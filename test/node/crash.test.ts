// The guarantee, under crashes, with real processes: every payment the gateway confirms reaches
// `onPaid` until it returns, none it does not confirm ever does, and a retry never starts a second
// payment. Faults drawn at random: the server SIGKILLed (also inside `onPaid`, and between its work
// and the ledger's mark), the store restarted, `onPaid` throwing on 30% of calls, half the webhooks
// lost, half the customers closing the tab. No wall-clock assertion: the reconciler's schedule is
// passed by moving the server's clock.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import Database from 'libsql';
import pg from 'pg';
import { findPostgres, missingPostgresMessage } from '../../scripts/ensure-postgres.mjs';
import { crashRun, fileLines, type CrashResult } from './crash/crash-run.js';
import { startPostgresServer } from './postgres-server.js';
import { startRedisServer } from './redis-server.js';

describe('crash test: every payment the gateway confirms reaches onPaid', { timeout: 900_000 }, () => {
  it('on Redis with its append-only file: each paid payment fulfilled, duplicates only where a kill fell between the work and its mark', async (t) => {
    const folder = await mkdtemp(join(tmpdir(), 'pay-widget-crash-'));
    const redis = await startRedisServer({ persistent: true });
    try {
      const result = await crashRun(
        {
          kind: 'redis',
          url: redis.url,
          restart: async () => {
            await redis.stop();
            await redis.start();
          },
          fulfilments: workLines,
        },
        folder,
      );
      assertGuarantee(t, result, { exactlyOnce: false });
    } finally {
      await redis.remove();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('on a SQLite file with onPaid writing through its db: each paid payment fulfilled exactly once', async (t) => {
    const folder = await mkdtemp(join(tmpdir(), 'pay-widget-crash-'));
    try {
      const result = await crashRun(
        {
          kind: 'sqlite',
          url: join(folder, 'ledger.db'),
          // Nothing to restart: the ledger is the file, and the server holding it is killed again and again.
          restart: async () => {},
          // The rows onPaid queued through db, committed with the mark (its file lines may repeat).
          fulfilments: async () => {
            const ledger = new Database(join(folder, 'ledger.db'), { readonly: true });
            try {
              return (ledger.prepare('SELECT reference FROM crash_fulfilments').all() as { reference: string }[]).map(
                (row) => row.reference,
              );
            } finally {
              ledger.close();
            }
          },
        },
        folder,
        // Half the customers of the other runs, to keep npm test short: still some 70 paid, and kills
        // inside onPaid and between its work and the mark in every run seen. (The three runs at once
        // took longer than one after another: each restart of a server is CPU-bound.)
        100,
      );
      assertGuarantee(t, result, { exactlyOnce: true, minimumPaid: 40 });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  const noPostgres = findPostgres() ? false : `skipped: ${missingPostgresMessage()}`;
  it(
    'on PostgreSQL with onPaid in its transaction: each paid payment fulfilled exactly once',
    { skip: noPostgres },
    async (t) => {
      const folder = await mkdtemp(join(tmpdir(), 'pay-widget-crash-'));
      const postgres = await startPostgresServer();
      try {
        const result = await crashRun(
          {
            kind: 'postgres',
            url: postgres.url,
            restart: async () => {
              await postgres.stop();
              await postgres.start();
            },
            fulfilments: async () => {
              const client = new pg.Client({ connectionString: postgres.url });
              await client.connect();
              try {
                const { rows } = await client.query<{ reference: string }>('SELECT reference FROM crash_fulfilments');
                return rows.map((row) => row.reference);
              } finally {
                await client.end();
              }
            },
          },
          folder,
        );
        assertGuarantee(t, result, { exactlyOnce: true });
      } finally {
        await postgres.close();
        await rm(folder, { recursive: true, force: true });
      }
    },
  );
});

/** The references of the `work` lines in onPaid's append-only file (Redis, SQLite). */
async function workLines(file: string): Promise<string[]> {
  return fileLines(file)
    .filter((line) => line.startsWith('work '))
    .map((line) => line.slice(5));
}

/** What the merchant relies on, checked against the sandbox's own record of what was paid. */
export function assertGuarantee(
  t: TestContext,
  result: CrashResult,
  { exactlyOnce, minimumPaid = 50 }: { exactlyOnce: boolean; minimumPaid?: number },
): void {
  const runs = new Map<string, number>();
  for (const reference of result.fulfilments) runs.set(reference, (runs.get(reference) ?? 0) + 1);
  const fulfilled = new Set(runs.keys());
  const killsAfterWork = new Map<string, number>();
  for (const kill of result.selfKills.filter((kill) => kill.where === 'kill-after-work')) {
    killsAfterWork.set(kill.reference, (killsAfterWork.get(kill.reference) ?? 0) + 1);
  }
  const duplicates = [...runs].filter(([, count]) => count > 1);
  t.diagnostic(
    `${result.payments} customers, ${result.initiated.size} payments initiated, ${result.paid.size} paid, ` +
      `${fulfilled.size} fulfilled, ${duplicates.length} fulfilled more than once; ${result.serverKills} server kills, ` +
      `${result.selfKills.length} kills inside onPaid (${killsAfterWork.size} between its work and the mark); ${result.sweeps} final sweeps; ` +
      `${result.refusals.length} customers without a payment (${result.refusals.join(', ')})`,
  );

  assert.ok(result.paid.size >= minimumPaid, `enough payments were paid to mean something (${result.paid.size})`);
  assert.deepEqual(
    [...result.paid].filter((reference) => !fulfilled.has(reference)),
    [],
    'every paid payment reached onPaid',
  );
  assert.deepEqual(
    [...fulfilled].filter((reference) => !result.paid.has(reference)),
    [],
    'no unpaid payment reached onPaid',
  );
  assert.equal(result.keysWithTwoReferences, 0, 'no customer was given two payments for one attempt');
  // A payment the gateway started that no customer was given can only be the one payment of a
  // customer who gave up (two minutes of a server that kept dying): never a second payment.
  const neverGiven = [...result.initiated].filter((reference) => !result.given.has(reference));
  assert.ok(
    neverGiven.length <= result.refusals.length,
    `payments started but given to nobody: ${neverGiven.join(', ')}; customers who gave up: ${result.refusals.length}`,
  );
  assert.ok(result.initiated.size <= result.payments, 'at most one payment started per customer');
  assert.deepEqual(result.workAfterMark, [], 'onPaid never ran again once the ledger recorded it fulfilled');
  // Without the transaction, onPaid's work and the ledger's mark are two writes: a kill (or a store
  // outage) between them runs it once more, which is why the README asks for an idempotent onPaid.
  if (exactlyOnce) assert.deepEqual(duplicates, [], 'onPaid in the transaction: each fulfilment exactly once');
}
