// A merchant's server as its own process, for the crash test: the session, status and webhook handlers and a reconciler
// on a shared ledger (Redis, PostgreSQL or a SQLite file), talking to a sandbox gateway that lives in the test's
// process. `onPaid` records each fulfilment outside this process (an append-only file, or a table in `onPaid`'s
// transaction or, on SQLite, written with the mark) and, when told to, throws or kills this process at the worst
// moments. Bundled and started by crash-run.ts.
import { appendFileSync } from 'node:fs';
// Named apart: the bundle's banner declares its own `createRequire`.
import { createRequire as requireFrom } from 'node:module';
import { getRequestListener } from '@hono/node-server';
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../../src/sandbox/index.js';
import {
  createGateway,
  createReconciler,
  createSessionHandler,
  createStatusHandler,
  createWebhookHandler,
} from '../../../src/server/internal.js';
import type { Payment, PaidContext } from '../../../src/server/internal.js';
import { createRedisStores } from '../../../src/server/stores/redis/index.js';
import type { SqlitePaidDb } from '../../../src/server/stores/sqlite/index.js';

const env = process.env;
const config = {
  port: Number(env.CRASH_PORT),
  gatewayUrl: env.CRASH_GATEWAY_URL!,
  redisUrl: env.CRASH_REDIS_URL,
  postgresUrl: env.CRASH_POSTGRES_URL,
  sqliteFile: env.CRASH_SQLITE_FILE,
  fulfilments: env.CRASH_FULFILMENTS!,
  /** One line per kill this process gives itself, with where. */
  kills: env.CRASH_KILLS!,
  faults: env.CRASH_FAULTS === '1',
  /** When set: onPaid writes `begin` and waits this long before its work (the multi-process test's window for overlaps). */
  onPaidMs: Number(env.CRASH_ONPAID_MS ?? 0),
  /** When set: the reconciler sweeps on this interval even without faults (processes sweeping at once). */
  sweepMs: Number(env.CRASH_SWEEP_MS ?? 0),
  statusSecret: 'crash-test-status-secret-0123456789abcdef',
};

/** Milliseconds added to the clock, moved by `POST /advance`, so the reconciler's schedule passes in seconds. */
let clockOffset = 0;
const realNow = Date.now;
Date.now = () => realNow() + clockOffset;

function killSelf(where: string, reference: string): never {
  appendFileSync(config.kills, `${where} ${reference}\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

/** With faults on: 30% of calls throw, some die before the work, some after it and before returning. */
function faultAt(where: 'before-work' | 'after-work', reference: string): void {
  if (!config.faults) return;
  const roll = Math.random();
  if (where === 'before-work' && roll < 0.05) killSelf('kill-before-work', reference);
  if (where === 'before-work' && roll < 0.35) throw new Error('onPaid failed (crash test)');
  if (where === 'after-work' && roll < 0.05) killSelf('kill-after-work', reference);
}

async function stores() {
  if (config.postgresUrl) {
    const { default: pg } = await import('pg');
    const { createPostgresStores, migratePostgres } = await import('../../../src/server/stores/postgres/index.js');
    const pool = new pg.Pool({ connectionString: config.postgresUrl, max: 8 });
    pool.on('error', () => {});
    await migratePostgres(pool);
    await pool.query('CREATE TABLE IF NOT EXISTS crash_fulfilments (id serial PRIMARY KEY, reference text NOT NULL)');
    const onPaid = async (payment: Payment, { db }: PaidContext) => {
      faultAt('before-work', payment.paymentReference);
      await (db as InstanceType<typeof pg.Client>).query('INSERT INTO crash_fulfilments (reference) VALUES ($1)', [
        payment.paymentReference,
      ]);
      faultAt('after-work', payment.paymentReference);
    };
    return { ...createPostgresStores(pool), onPaid };
  }
  // Redis and SQLite: onPaid's work is a line in an append-only file, the ledger's mark another write.
  // On SQLite it also queues a row through `db`, committed with the mark: that table, exactly once.
  const onPaid = async (payment: Payment, { db }: PaidContext) => {
    faultAt('before-work', payment.paymentReference);
    if (config.onPaidMs > 0) {
      appendFileSync(config.fulfilments, `begin ${payment.paymentReference}\n`);
      await new Promise((resolve) => setTimeout(resolve, config.onPaidMs));
    }
    appendFileSync(config.fulfilments, `work ${payment.paymentReference}\n`);
    (db as SqlitePaidDb | undefined)?.run(
      'INSERT INTO crash_fulfilments (reference) VALUES (?)',
      payment.paymentReference,
    );
    faultAt('after-work', payment.paymentReference);
  };
  if (config.sqliteFile) {
    const { createSqliteStores } = await import('../../../src/server/stores/sqlite/index.js');
    const sqlite = createSqliteStores(config.sqliteFile); // first: it makes the file, 0600
    // The driver is not bundled: required (through NODE_PATH), as the store itself does.
    const Database = requireFrom(import.meta.url)('libsql') as typeof import('libsql');
    const shop = new Database(config.sqliteFile, { timeout: 5_000 });
    shop.exec('CREATE TABLE IF NOT EXISTS crash_fulfilments (id INTEGER PRIMARY KEY, reference TEXT NOT NULL)');
    shop.close();
    return { ...sqlite, onPaid };
  }
  const client = createClient({ url: config.redisUrl, socket: { reconnectStrategy: () => 100 } });
  client.on('error', () => {});
  await client.connect();
  return { ...createRedisStores(client as never), onPaid };
}

const { idempotency, payments, onPaid } = await stores();
const gateway = createGateway({
  baseUrl: config.gatewayUrl,
  publicKey: SANDBOX_PUBLIC_KEY,
  secretKey: SANDBOX_SECRET_KEY,
});
const origin = `http://127.0.0.1:${config.port}`;
const leaseMs = Number(env.CRASH_LEASE_MS ?? 2_000);
// On PostgreSQL a lease covers the transaction's time limit and one lease more: short, so that the
// final sweeps wait seconds, not half a minute, for those of processes killed inside onPaid.
const onPaidTimeoutMs = 5_000;

const session = createSessionHandler({
  gateway,
  idempotency,
  payments,
  statusSecret: config.statusSecret,
  // The README's warning case: a random reference per resolution. The ledger keeps one per key.
  order: () => ({
    amount: '1500.00',
    paymentReference: `order-${crypto.randomUUID()}`,
    callbackUrl: `${origin}/callback`,
    redirectUrl: `${origin}/done`,
  }),
});
/** The ledger's mark, beside `onPaid`'s work in the same append-only file: no work may follow it. */
const onEvent = (event: { type: string; paymentReference?: string }) => {
  if (event.type === 'fulfilled') appendFileSync(config.fulfilments, `marked ${event.paymentReference}\n`);
};
const status = createStatusHandler({
  statusSecret: config.statusSecret,
  payments,
  gateway,
  onPaid,
  onEvent,
  leaseMs,
  onPaidTimeoutMs,
  recheckAfterMs: 200,
});
const webhook = createWebhookHandler({ gateway, payments, onPaid, onEvent, leaseMs, onPaidTimeoutMs });
const reconciler = createReconciler({
  gateway,
  payments,
  onPaid,
  onEvent,
  leaseMs,
  onPaidTimeoutMs,
  queriesPerSecond: 1_000,
});
if (config.faults || config.sweepMs > 0) reconciler.start(config.sweepMs || 300);

const routes: Record<string, (request: Request) => Promise<Response>> = {
  '/session': session,
  '/status': status,
  '/webhook': webhook,
  '/reconcile': async () => Response.json(await reconciler.run()),
  '/advance': async (request) => {
    clockOffset += Number(new URL(request.url).searchParams.get('ms'));
    return Response.json({ offset: clockOffset });
  },
};

const listener = getRequestListener((request) => {
  const route = routes[new URL(request.url).pathname];
  return route ? route(request) : new Response('not found', { status: 404 });
});
createServer(listener).listen(config.port, '127.0.0.1', () => process.send?.('ready'));
