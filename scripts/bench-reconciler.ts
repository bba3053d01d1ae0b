/**
 * The reconciler's throughput: one sweep (`run()`) over --entries ledger entries all due at once, on each store
 * (memory; Redis and PostgreSQL on throw-away servers on 127.0.0.1, as the tests start them; SQLite on a new file in
 * the system's temporary folder, synchronous=FULL as shipped), against the sandbox gateway in this process with
 * `queriesPerSecond` out of the way, so the figure is the reconciler's and the store's own work. Half the payments were
 * paid at the gateway (the sweep settles them SUCCESS and runs a no-op `onPaid` under its lease), half are still
 * pending (the sweep moves them to their next check). Entries are written before the clock starts.
 *
 *   node --import tsx scripts/bench-reconciler.ts [--entries 10000] [--batch 50] [--json bench/reconciler.json]
 *
 * Prints entries per second per store, and on Redis the round trips per entry. A benchmark, not a
 * test: it fails only when a sweep does not do what it should (every entry checked, half paid).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createClient } from 'redis';
import { countRoundTrips } from '../bench/lib/round-trips.js';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../src/sandbox/index.js';
import {
  createGateway,
  createMemoryPaymentStore,
  createReconciler,
  type Payment,
  type PaymentStore,
  type ReconcileCounts,
} from '../src/server/internal.js';
import { createPostgresStores, migratePostgres } from '../src/server/stores/postgres/index.js';
import { createRedisStores } from '../src/server/stores/redis/index.js';
import { createSqliteStores } from '../src/server/stores/sqlite/index.js';
import { startPostgresServer } from '../test/node/postgres-server.js';
import { startRedisServer } from '../test/node/redis-server.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '10000' },
    batch: { type: 'string', default: '50' },
    json: { type: 'string', default: 'bench/reconciler.json' },
  },
});
const ENTRIES = Math.min(100_000, Math.max(100, Number(values.entries)));
const BATCH = Math.min(1_000, Math.max(1, Number(values.batch)));
const MINUTE = 60_000;

type Ledger = { payments: PaymentStore; roundTrips?: () => number; close(): Promise<void> };
type Figure = {
  store: string;
  entries: number;
  seconds: number;
  entriesPerSecond: number;
  counts: ReconcileCounts;
  redisRoundTripsPerEntry?: number;
};

const sandbox = createSandboxGateway({ maxPayments: ENTRIES * 4 });
const gateway = createGateway({
  baseUrl: 'https://sandbox.invalid',
  publicKey: SANDBOX_PUBLIC_KEY,
  accessToken: SANDBOX_ACCESS_TOKEN,
  fetch: sandbox.fetch,
});

/** A payment the session started a while ago: at the gateway, its first check due. */
function entry(paymentReference: string, createdAt: number): Payment {
  return {
    paymentReference,
    paymentType: 'TRANSFER',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt,
    updatedAt: createdAt,
    idempotencyKey: `key-${paymentReference}`,
    initiation: 'started',
    dueAt: createdAt + MINUTE,
  };
}

/** Starts `ENTRIES` payments at the sandbox (every other one then paid) and records them in the ledger. */
async function seed(name: string, payments: PaymentStore, entries: number): Promise<void> {
  const createdAt = Date.now() - 2 * MINUTE;
  const references = Array.from({ length: entries }, (_, i) => `rec-${name}-${process.pid}-${i}`);
  for (let i = 0; i < references.length; i += 200) {
    await Promise.all(
      references.slice(i, i + 200).map(async (reference, j) => {
        const body = {
          publicKey: SANDBOX_PUBLIC_KEY,
          amount: '5000.00',
          fullName: 'Ada Obi',
          mobileNumber: '08030000000',
          email: 'ada@example.ng',
        };
        const started = await gateway.initiate({
          ...body,
          currency: 'NGN',
          country: 'NG',
          paymentReference: reference,
          callbackUrl: 'https://shop.test/cb',
          redirectUrl: 'https://shop.test/done',
          paymentType: 'TRANSFER',
        });
        if (started.kind !== 'success') throw new Error(`the sandbox did not start ${reference}: ${started.kind}`);
        if ((i + j) % 2 === 0) sandbox.setStatus(reference, 'SUCCESS');
        if (!(await payments.insert(entry(reference, createdAt)))) throw new Error(`the ledger refused ${reference}`);
      }),
    );
  }
}

async function sweep(name: string, ledger: Ledger, entries = ENTRIES): Promise<Figure> {
  await seed(name, ledger.payments, entries);
  const reconciler = createReconciler({
    gateway,
    payments: ledger.payments,
    onPaid: async () => {},
    queriesPerSecond: 1_000_000,
    batchSize: BATCH,
  });
  ledger.roundTrips?.();
  const started = performance.now();
  const counts = await reconciler.run();
  const seconds = (performance.now() - started) / 1000;
  const trips = ledger.roundTrips?.();
  const half = entries / 2;
  if (
    counts.checked !== entries ||
    counts.paid !== Math.ceil(half) ||
    counts.fulfilled !== Math.ceil(half) ||
    counts.errors !== 0
  ) {
    throw new Error(`${name}: the sweep did not do its work: ${JSON.stringify(counts)}`);
  }
  return {
    store: name,
    entries,
    seconds,
    entriesPerSecond: entries / seconds,
    counts,
    ...(trips === undefined ? {} : { redisRoundTripsPerEntry: trips / entries }),
  };
}

async function redisLedger(): Promise<Ledger> {
  const server = await startRedisServer();
  const client = await createClient({ url: server.url })
    .on('error', () => {})
    .connect();
  const counted = countRoundTrips(client);
  return {
    payments: createRedisStores(counted.client, { prefix: 'bench-reconciler:' }).payments,
    roundTrips: counted.take,
    close: async () => {
      client.destroy();
      await server.stop();
    },
  };
}

async function postgresLedger(): Promise<Ledger> {
  const server = await startPostgresServer();
  const pool = new pg.Pool({ connectionString: server.url, max: 20 });
  await migratePostgres(pool);
  return {
    payments: createPostgresStores(pool).payments,
    close: async () => {
      await pool.end();
      await server.close();
    },
  };
}

async function sqliteLedger(): Promise<Ledger> {
  const folder = mkdtempSync(join(tmpdir(), 'pay-widget-bench-'));
  const stores = createSqliteStores(join(folder, 'ledger.db'));
  return {
    payments: stores.payments,
    close: async () => {
      stores.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

const ledgers: Record<string, () => Promise<Ledger>> = {
  memory: async () => ({ payments: createMemoryPaymentStore({ maxEntries: ENTRIES * 2 }), close: async () => {} }),
  Redis: redisLedger,
  PostgreSQL: postgresLedger,
  SQLite: sqliteLedger,
};

console.log(
  `node ${process.version}; the reconciler's sweep over ${ENTRIES} due entries (half paid at the gateway), batches of ${BATCH}, sandbox in process`,
);
// Not counted: the first sweep in this process pays for compiling the reconciler's code.
await sweep('warm-up', await ledgers.memory!(), Math.min(1_000, ENTRIES));
const figures: Figure[] = [];
const skipped: Record<string, string> = {};
for (const [name, open] of Object.entries(ledgers)) {
  let ledger: Ledger;
  try {
    ledger = await open();
  } catch (error) {
    skipped[name] = (error as Error).message;
    console.log(`  ${name.padEnd(12)} skipped: ${skipped[name]}`);
    continue;
  }
  try {
    const figure = await sweep(name, ledger);
    figures.push(figure);
    const trips =
      figure.redisRoundTripsPerEntry === undefined
        ? ''
        : `   ${figure.redisRoundTripsPerEntry.toFixed(2)} Redis round trips per entry`;
    console.log(
      `  ${name.padEnd(12)} ${figure.entriesPerSecond.toFixed(0).padStart(7)} entries/s   (${figure.seconds.toFixed(2)} s)${trips}`,
    );
  } finally {
    await ledger.close();
  }
}
sandbox.close();

const round = (value: number) => Math.round(value * 1000) / 1000;
const report = {
  command: 'node --import tsx scripts/bench-reconciler.ts',
  node: process.version,
  date: new Date().toISOString(),
  entries: ENTRIES,
  batchSize: BATCH,
  figures: figures.map((figure) => ({
    ...figure,
    seconds: round(figure.seconds),
    entriesPerSecond: round(figure.entriesPerSecond),
  })),
  skipped,
};
mkdirSync(dirname(values.json!), { recursive: true });
writeFileSync(values.json!, `${JSON.stringify(report, null, 2)}\n`);
console.log(`Written to ${values.json}`);
