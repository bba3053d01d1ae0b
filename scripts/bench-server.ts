/**
 * What the session handler adds to a payment initiation. Starts four servers, each in its own child
 * process (so the load generator shares no event loop with them) and each mounted the same way,
 * through @hono/node-server on a 127.0.0.1 port:
 *   - the sandbox gateway;
 *   - a pass-through proxy that forwards the body to the sandbox with `fetch` and answers with the
 *     sandbox's body: the floor for any fetch-based handler, i.e. the cost of the second HTTP hop;
 *   - the session handler, calling the sandbox, with its in-memory stores;
 *   - the same handler with its idempotency store and ledger in Redis (`pay-widget/server/redis`, on a
 *     throw-away redis-server on a free 127.0.0.1 port without persistence, as the tests start it),
 *     counting its Redis round trips per payment (every command goes through the client's
 *     `sendCommand`);
 *   - the same handler with both stores in PostgreSQL (`pay-widget/server/postgres`, on a throw-away
 *     cluster started as test/node/postgres-server.ts starts it: fsync off, 127.0.0.1);
 *   - the same handler with both stores in a SQLite file (`pay-widget/server/sqlite`, a new file in
 *     the system's temporary folder, WAL and synchronous=FULL as shipped: every commit on disk).
 * The same client (`fetch`, keep-alive, warmed up) sends gateway-shaped requests to the sandbox and to
 * the proxy, and widget-shaped requests (distinct Idempotency-Keys) to the handler, in alternating
 * rounds: once one at a time (latency), once with --concurrency in flight (throughput). The handler's
 * "added" time is then split into the second hop (proxy − direct) and the handler above that floor
 * (handler − proxy). It also compares in-process (no sockets), which isolates the handler's own work.
 *
 *   node --import tsx scripts/bench-server.ts [--requests 1000] [--concurrency 8] [--json bench/server.json]
 *
 * Prints a table and writes the figures as JSON (default bench/server.json). Only 127.0.0.1; bounded
 * in count and in time (--max-seconds, default 90).
 */
import { getRequestListener } from '@hono/node-server';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createClient } from 'redis';
import { countRoundTrips } from '../bench/lib/round-trips.js';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../src/sandbox/index.js';
import { createSessionHandler } from '../src/server/internal.js';
import { createPostgresStores, migratePostgres } from '../src/server/stores/postgres/index.js';
import { createRedisStores } from '../src/server/stores/redis/index.js';
import { createSqliteStores } from '../src/server/stores/sqlite/index.js';
import { startPostgresServer, type PostgresServer } from '../test/node/postgres-server.js';
import { startRedisServer, type RedisServer } from '../test/node/redis-server.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
    'max-seconds': { type: 'string', default: '90' },
    json: { type: 'string', default: 'bench/server.json' },
    serve: { type: 'string' },
    gateway: { type: 'string' },
    redis: { type: 'string' },
    postgres: { type: 'string' },
    sqlite: { type: 'string' },
  },
});
const REQUESTS = Math.min(50_000, Math.max(100, Number(values.requests)));
const CONCURRENCY = Math.min(256, Math.max(1, Number(values.concurrency)));
const ROUNDS = 4;
const DEADLINE = performance.now() + Math.min(600, Number(values['max-seconds'])) * 1000;
const WARMUP = Math.min(500, Math.ceil(REQUESTS / 4));

const ORDER = { amount: '1500', callbackUrl: 'https://shop.test/cb', redirectUrl: 'https://shop.test/done' };
const CUSTOMER = { fullName: 'Ada Obi', email: 'ada@example.ng', mobileNumber: '08030000000' };

let sequence = 0;
const widgetRequest = (i: number) => ({
  ...(i % 2 === 0 ? { paymentType: 'USSD', bankCode: '058' } : { paymentType: 'TRANSFER' }),
  ...CUSTOMER,
});
const gatewayRequest = (i: number) => ({
  publicKey: SANDBOX_PUBLIC_KEY,
  amount: ORDER.amount,
  ...CUSTOMER,
  currency: 'NGN',
  country: 'NG',
  paymentReference: `bench-direct-${++sequence}`,
  callbackUrl: ORDER.callbackUrl,
  redirectUrl: ORDER.redirectUrl,
  ...(i % 2 === 0 ? { paymentType: 'USSD', bankCode: '058' } : { paymentType: 'TRANSFER' }),
});

type Send = (i: number) => Promise<Response>;
type Result = { name: string; count: number; seconds: number; latencies: number[] };

async function run(name: string, count: number, send: Send, concurrency: number): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < count && performance.now() < DEADLINE) {
      const i = next++;
      const t0 = performance.now();
      const response = await send(i);
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status} on request ${i}`);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { name, count: latencies.length, seconds: (performance.now() - started) / 1000, latencies };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function summarize(result: Result) {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return {
    rps: result.count / result.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    count: result.count,
  };
}

async function listen(fetchHandler: (request: Request) => Promise<Response>): Promise<string> {
  const server = createServer(getRequestListener(fetchHandler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** Runs this script again as a server process; resolves with its URL. */
function spawnServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(fileURLToPath(import.meta.url), args, { execArgv: ['--import', 'tsx'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (url) => resolve({ url: String(url), child }));
    child.once('exit', (code) => reject(new Error(`server ${args.join(' ')} exited with ${code}`)));
  });
}

function postJson(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

type Summary = ReturnType<typeof summarize>;

/** Alternates the sides in rounds so drift (JIT, GC, CPU boost) hits them alike. */
async function measure(sides: Record<string, Send>, concurrency: number): Promise<Record<string, Summary>> {
  const parts: Record<string, Result[]> = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, send] of Object.entries(sides))
      parts[name]!.push(await run(name, REQUESTS / ROUNDS, send, concurrency));
  }
  const merge = (results: Result[]): Result => ({
    name: results[0]!.name,
    count: results.reduce((n, r) => n + r.count, 0),
    seconds: results.reduce((s, r) => s + r.seconds, 0),
    latencies: results.flatMap((r) => r.latencies),
  });
  return Object.fromEntries(Object.entries(parts).map(([name, results]) => [name, summarize(merge(results))]));
}

/** A phase the time limit left without requests has no figures: '—', not a crash that loses the others. */
const ms = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? `${value.toFixed(3)} ms` : '—';
function row(name: string, s: Summary) {
  return `  ${name.padEnd(36)} ${String(s.count).padStart(6)} req ${s.rps.toFixed(0).padStart(7)} req/s   p50 ${ms(s.p50)}   p99 ${ms(s.p99)}`;
}
function added(label: string, h: Summary, d: Summary) {
  return `  ${label.padEnd(36)} p50 +${ms(h.p50 - d.p50)}   latency ×${(h.p50 / d.p50).toFixed(2)}   throughput ×${(h.rps / d.rps).toFixed(2)}`;
}

const children: ChildProcess[] = [];
const auth = { authorization: `Bearer ${SANDBOX_ACCESS_TOKEN}` };
let key = 0;
const idempotency = () => ({ 'idempotency-key': `bench-key-${++key}-${process.pid}` });
const sessionOptions = { publicKey: SANDBOX_PUBLIC_KEY, accessToken: SANDBOX_ACCESS_TOKEN, order: () => ORDER };

if (values.serve) {
  // A server child never outlives the bench, even when the bench itself is killed.
  process.on('disconnect', () => process.exit(0));
  const app =
    values.serve === 'sandbox'
      ? createSandboxGateway()
      : values.serve === 'proxy'
        ? passThrough(values.gateway!)
        : await measuredHandler();
  process.send!(await listen(app));
} else {
  await main();
}

/**
 * The least a fetch-based handler can do: read the body, POST it upstream with `fetch`, read the
 * answer and return it. Over loopback, the second HTTP hop that any such handler pays.
 */
function passThrough(gatewayUrl: string): (request: Request) => Promise<Response> {
  const url = `${gatewayUrl}/api/v2/payments/initiates`;
  return async (request) => {
    const upstream = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: request.headers.get('authorization') ?? '',
      },
      body: await request.text(),
    });
    return new Response(await upstream.text(), {
      status: upstream.status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  };
}

/**
 * The handler as mounted, timed from the moment it gets the Request to the moment it returns the
 * Response, minus the gateway round trip it reports through onEvent: its own work over real HTTP.
 * Requests are matched to their gateway event through the paymentReference the order resolver gives
 * them, so the Response is returned untouched (reading a clone of it would push the adapter off its
 * fast path for string bodies and bill that to the handler).
 */
async function measuredHandler(): Promise<(request: Request) => Promise<Response>> {
  const { stores, roundTrips } = await handlerStores();
  let handled = 0;
  const references = new WeakMap<Request, string>();
  const gatewayMs = new Map<string, number>();
  let reference = 0;
  let own: number[] = [];
  let upstreamAll: number[] = [];
  const handler = createSessionHandler({
    ...sessionOptions,
    order: (_sessionRequest, { request }) => ({ ...ORDER, paymentReference: references.get(request) }),
    baseUrl: values.gateway!,
    ...stores,
    onEvent: (event) => {
      if (event.type === 'gateway') gatewayMs.set(event.paymentReference, event.durationMs);
    },
  });
  process.on('message', (message) => {
    if (message === 'stats') {
      const sorted = [...own].sort((a, b) => a - b);
      const upstreamSorted = [...upstreamAll].sort((a, b) => a - b);
      const trips = roundTrips?.();
      const perPayment = trips === undefined || handled === 0 ? {} : { roundTripsPerPayment: trips / handled };
      process.send!({
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        count: sorted.length,
        gatewayP50: percentile(upstreamSorted, 50),
        ...perPayment,
      });
    }
    roundTrips?.();
    handled = 0;
    own = [];
    upstreamAll = [];
    gatewayMs.clear();
  });
  return async (request) => {
    const paymentReference = `bench-${process.pid}-${++reference}`;
    references.set(request, paymentReference);
    const started = performance.now();
    const response = await handler(request);
    const total = performance.now() - started;
    handled += 1;
    const upstream = gatewayMs.get(paymentReference);
    if (upstream !== undefined) {
      gatewayMs.delete(paymentReference);
      own.push(total - upstream);
      upstreamAll.push(upstream);
    }
    return response;
  };
}

/**
 * With --redis, both stores live in Redis, as on several instances, its round trips counted; with
 * --postgres, in PostgreSQL (its tables created first); with --sqlite, in that SQLite file;
 * otherwise the handler's memory stores.
 */
async function handlerStores() {
  if (values.redis) {
    const counted = countRoundTrips(
      await createClient({ url: values.redis })
        .on('error', () => {})
        .connect(),
    );
    return { stores: createRedisStores(counted.client), roundTrips: counted.take };
  }
  if (values.postgres) {
    const pool = new pg.Pool({ connectionString: values.postgres, max: 20 });
    await migratePostgres(pool);
    return { stores: createPostgresStores(pool), roundTrips: undefined };
  }
  if (values.sqlite) return { stores: createSqliteStores(values.sqlite), roundTrips: undefined };
  return { stores: {}, roundTrips: undefined };
}

type HandlerStats = { p50: number; p99: number; count: number; gatewayP50: number; roundTripsPerPayment?: number };

function handlerStats(child: ChildProcess): Promise<HandlerStats> {
  return new Promise((resolve) => {
    child.once('message', (stats) => resolve(stats as HandlerStats));
    child.send('stats');
  });
}

type Row = { side: string; inFlight: number } & Summary;

async function main() {
  console.log(
    `node ${process.version}, ${REQUESTS} requests per side and phase, warm-up ${WARMUP}; p50/p99 are client-side latencies`,
  );
  let redis: RedisServer | undefined;
  let postgres: PostgresServer | undefined;
  const rows: Row[] = [];
  const own: Record<string, HandlerStats> = {};
  const sqliteFolder = mkdtempSync(join(tmpdir(), 'pay-widget-bench-'));
  try {
    redis = await startOrSay('Redis', startRedisServer);
    postgres = await startOrSay('PostgreSQL', startPostgresServer);
    const gateway = await spawnServer(['--serve', 'sandbox']);
    const proxy = await spawnServer(['--serve', 'proxy', '--gateway', gateway.url]);
    const handler = (...stores: string[]) => spawnServer(['--serve', 'handler', '--gateway', gateway.url, ...stores]);
    const merchants: Record<string, { url: string; child: ChildProcess }> = {
      // "session handler" (its memory stores) is the name scripts/bench.ts reads the figures by.
      'session handler': await handler(),
      ...(redis ? { 'session handler, Redis stores': await handler('--redis', redis.url) } : {}),
      ...(postgres ? { 'session handler, PostgreSQL stores': await handler('--postgres', postgres.url) } : {}),
      'session handler, SQLite stores': await handler('--sqlite', join(sqliteFolder, 'ledger.db')),
    };
    const sides: Record<string, Send> = {
      'sandbox directly': (i) => postJson(`${gateway.url}/api/v2/payments/initiates`, gatewayRequest(i), auth),
      'pass-through fetch proxy': (i) => postJson(`${proxy.url}/api/v2/payments/initiates`, gatewayRequest(i), auth),
      ...Object.fromEntries(
        Object.entries(merchants).map(([name, merchant]) => [
          name,
          (i: number) => postJson(`${merchant.url}/session`, widgetRequest(i), idempotency()),
        ]),
      ),
    };
    for (const send of Object.values(sides)) await run('warm-up', WARMUP, send, CONCURRENCY);
    console.log(
      '\nOver loopback HTTP (client → server → sandbox), each server its own process; the session handler with its memory stores, then with Redis, PostgreSQL, SQLite:',
    );
    for (const concurrency of [1, CONCURRENCY]) {
      for (const merchant of Object.values(merchants)) await handlerStats(merchant.child);
      const s = await measure(sides, concurrency);
      for (const [name, merchant] of Object.entries(merchants))
        own[`${name}, ${concurrency} in flight`] = await handlerStats(merchant.child);
      console.log(`${concurrency} in flight`);
      for (const [side, summary] of Object.entries(s)) {
        rows.push({ side, inFlight: concurrency, ...summary });
        console.log(row(side, summary));
      }
      const proxied = s['pass-through fetch proxy']!;
      for (const name of Object.keys(merchants)) {
        console.log(
          `    ${name}: above the proxy's floor p50 +${ms(s[name]!.p50 - proxied.p50)}, throughput ×${(s[name]!.rps / proxied.rps).toFixed(2)} of the proxy's`,
        );
      }
    }
    console.log('\nSummary (req/s, p50, p99 over a socket):');
    console.log(table(rows));
    console.log('\nInside the handler: own work (total − gateway round trip)');
    for (const [name, stats] of Object.entries(own)) {
      const trips =
        stats.roundTripsPerPayment === undefined
          ? ''
          : `   ${stats.roundTripsPerPayment.toFixed(2)} Redis round trips per payment`;
      console.log(`  ${name.padEnd(50)} p50 ${ms(stats.p50)}   p99 ${ms(stats.p99)}${trips}`);
    }

    const sandbox = createSandboxGateway();
    const inProcess = createSessionHandler({
      ...sessionOptions,
      baseUrl: 'https://sandbox.invalid',
      fetch: sandbox.fetch,
    });
    const request = (url: string, body: unknown, headers: Record<string, string>) =>
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const local: Record<string, Send> = {
      direct: (i) => sandbox(request('https://sandbox.invalid/api/v2/payments/initiates', gatewayRequest(i), auth)),
      handler: (i) => inProcess(request('https://shop.test/session', widgetRequest(i), idempotency())),
    };
    for (const send of Object.values(local)) await run('warm-up', WARMUP, send, 1);
    const s = await measure(local, 1);
    console.log('\nIn process, no sockets (the handler’s own work), 1 in flight');
    console.log(row('sandbox directly', s.direct!));
    console.log(row('session handler', s.handler!));
    console.log(added('handler adds', s.handler!, s.direct!));
    const stopped = performance.now() > DEADLINE;
    if (stopped) console.log('\n(stopped early at --max-seconds; figures cover the requests sent)');
    const report = {
      command: 'node --import tsx scripts/bench-server.ts',
      node: process.version,
      date: new Date().toISOString(),
      requestsPerSide: REQUESTS,
      stoppedEarly: stopped,
      overSocket: rows.map(({ side, inFlight, rps, p50, p99, count }) => ({
        side,
        inFlight,
        rps: round(rps),
        p50Ms: round(p50),
        p99Ms: round(p99),
        count,
      })),
      handlerOwnWork: Object.fromEntries(
        Object.entries(own).map(([name, stats]) => [
          name,
          {
            p50Ms: round(stats.p50),
            p99Ms: round(stats.p99),
            ...(stats.roundTripsPerPayment === undefined
              ? {}
              : { redisRoundTripsPerPayment: round(stats.roundTripsPerPayment) }),
          },
        ]),
      ),
      inProcess: { sandbox: roundAll(s.direct!), handler: roundAll(s.handler!) },
    };
    mkdirSync(dirname(values.json!), { recursive: true });
    writeFileSync(values.json!, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nWritten to ${values.json}`);
  } finally {
    for (const child of children) child.kill();
    await redis?.stop();
    await postgres?.close();
    rmSync(sqliteFolder, { recursive: true, force: true });
  }
}

/** A throw-away store server, or undefined (and one line saying why) when it cannot start here. */
async function startOrSay<T>(name: string, start: () => Promise<T>): Promise<T | undefined> {
  try {
    return await start();
  } catch (error) {
    console.log(`(no ${name} side: ${(error as Error).message})`);
    return undefined;
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function roundAll(s: Summary) {
  return { rps: round(s.rps), p50Ms: round(s.p50), p99Ms: round(s.p99), count: s.count };
}

function table(rows: Row[]): string {
  const lines = [
    '| side | in flight | req/s | p50 | p99 |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.side} | ${r.inFlight} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} |`),
  ];
  return lines.join('\n');
}
