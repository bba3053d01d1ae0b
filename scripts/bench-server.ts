/**
 * What the session handler adds to a payment initiation. Starts the sandbox gateway on one loopback
 * port and the session handler (calling that sandbox over loopback) on another, both through
 * @hono/node-server and each in its own child process so the load generator does not share their
 * event loop, then sends widget-shaped requests to the handler and gateway-shaped requests to the
 * sandbox directly and compares: once one at a time (latency), once with --concurrency in flight
 * (throughput). It also compares both in-process (no sockets), which isolates the handler's own work.
 *
 *   node --import tsx scripts/bench-server.ts [--requests 1000] [--concurrency 8]
 *
 * Only 127.0.0.1; bounded in count and in time (--max-seconds, default 90).
 */
import { getRequestListener } from '@hono/node-server';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../src/sandbox/index.js';
import { createSessionHandler } from '../src/server/index.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
    'max-seconds': { type: 'string', default: '90' },
    serve: { type: 'string' },
    gateway: { type: 'string' },
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
  return { rps: result.count / result.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), count: result.count };
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
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** Alternates the two sides in rounds so drift (JIT, GC, CPU boost) hits both alike. */
async function compare(label: string, direct: Send, handler: Send, concurrency: number) {
  const results = { direct: [] as Result[], handler: [] as Result[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    results.direct.push(await run('direct', REQUESTS / ROUNDS, direct, concurrency));
    results.handler.push(await run('handler', REQUESTS / ROUNDS, handler, concurrency));
  }
  const merge = (parts: Result[]): Result => ({
    name: parts[0]!.name,
    count: parts.reduce((n, r) => n + r.count, 0),
    seconds: parts.reduce((s, r) => s + r.seconds, 0),
    latencies: parts.flatMap((r) => r.latencies),
  });
  const d = summarize(merge(results.direct));
  const h = summarize(merge(results.handler));
  const row = (name: string, s: ReturnType<typeof summarize>) =>
    `  ${name.padEnd(28)} ${String(s.count).padStart(6)} req  ${s.rps.toFixed(0).padStart(7)} req/s  p50 ${s.p50.toFixed(3)} ms  p99 ${s.p99.toFixed(3)} ms`;
  console.log(`\n${label}, ${concurrency} in flight:`);
  console.log(row('sandbox directly', d));
  console.log(row('handler → sandbox', h));
  console.log(
    `  added at p50: ${(h.p50 - d.p50).toFixed(3)} ms   latency ratio p50 ${(h.p50 / d.p50).toFixed(2)}×   throughput ratio ${(h.rps / d.rps).toFixed(2)}×`,
  );
}

const children: ChildProcess[] = [];
const auth = { authorization: `Bearer ${SANDBOX_ACCESS_TOKEN}` };
let key = 0;
const idempotency = () => ({ 'idempotency-key': `bench-key-${++key}-${process.pid}` });
const sessionOptions = { publicKey: SANDBOX_PUBLIC_KEY, accessToken: SANDBOX_ACCESS_TOKEN, order: () => ORDER };

if (values.serve === 'sandbox') {
  process.send!(await listen(createSandboxGateway()));
} else if (values.serve === 'handler') {
  process.send!(await listen(measuredHandler()));
} else {
  await main();
}

/**
 * The handler as mounted, timed from the moment it gets the Request to the moment it returns the
 * Response, minus the gateway round trip it reports through onEvent: its own work over real HTTP.
 */
function measuredHandler(): (request: Request) => Promise<Response> {
  const gatewayMs = new Map<string, number>();
  let own: number[] = [];
  let upstreamAll: number[] = [];
  const handler = createSessionHandler({
    ...sessionOptions,
    baseUrl: values.gateway!,
    onEvent: (event) => {
      if (event.type === 'gateway') gatewayMs.set(event.paymentReference, event.durationMs);
    },
  });
  process.on('message', (message) => {
    const sorted = [...own].sort((a, b) => a - b);
    const upstreamSorted = [...upstreamAll].sort((a, b) => a - b);
    if (message === 'stats') {
      process.send!({ p50: percentile(sorted, 50), p99: percentile(sorted, 99), count: sorted.length, gatewayP50: percentile(upstreamSorted, 50) });
    }
    own = [];
    upstreamAll = [];
    gatewayMs.clear();
  });
  return async (request) => {
    const started = performance.now();
    const response = await handler(request);
    const total = performance.now() - started;
    const body = (await response.clone().json()) as { data?: { payments?: { paymentReference?: string } } };
    const upstream = gatewayMs.get(body.data?.payments?.paymentReference ?? '');
    if (upstream !== undefined) {
      own.push(total - upstream);
      upstreamAll.push(upstream);
    }
    return response;
  };
}

type HandlerStats = { p50: number; p99: number; count: number; gatewayP50: number };

function handlerStats(child: ChildProcess): Promise<HandlerStats> {
  return new Promise((resolve) => {
    child.once('message', (stats) => resolve(stats as HandlerStats));
    child.send('stats');
  });
}

async function main() {
  console.log(`node ${process.version}, ${REQUESTS} requests per side and phase, warm-up ${WARMUP}`);
  try {
    const gateway = await spawnServer(['--serve', 'sandbox']);
    const merchant = await spawnServer(['--serve', 'handler', '--gateway', gateway.url]);
    const direct: Send = (i) => postJson(`${gateway.url}/api/v2/payments/initiates`, gatewayRequest(i), auth);
    const viaHandler: Send = (i) => postJson(`${merchant.url}/session`, widgetRequest(i), idempotency());
    await run('warm-up', WARMUP, direct, CONCURRENCY);
    await run('warm-up', WARMUP, viaHandler, CONCURRENCY);
    const loopback = 'Over loopback HTTP, client → [handler →] sandbox, each server its own process';
    for (const concurrency of [1, CONCURRENCY]) {
      await handlerStats(merchant.child);
      await compare(loopback, direct, viaHandler, concurrency);
      const own = await handlerStats(merchant.child);
      console.log(
        `  inside the handler process, its own work (total − gateway round trip): p50 ${own.p50.toFixed(3)} ms  p99 ${own.p99.toFixed(3)} ms (${own.count} req); its gateway round trip p50 ${own.gatewayP50.toFixed(3)} ms`,
      );
    }

    const sandbox = createSandboxGateway();
    const inProcess = createSessionHandler({ ...sessionOptions, baseUrl: 'https://sandbox.invalid', fetch: sandbox.fetch });
    const request = (url: string, body: unknown, headers: Record<string, string>) =>
      new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const directInProcess: Send = (i) =>
      sandbox(request('https://sandbox.invalid/api/v2/payments/initiates', gatewayRequest(i), auth));
    const handlerInProcess: Send = (i) => inProcess(request('https://shop.test/session', widgetRequest(i), idempotency()));
    await run('warm-up', WARMUP, directInProcess, 1);
    await run('warm-up', WARMUP, handlerInProcess, 1);
    await compare('In process, no sockets (the handler’s own work)', directInProcess, handlerInProcess, 1);
    if (performance.now() > DEADLINE) console.log('\n(stopped early at --max-seconds; figures cover the requests sent)');
  } finally {
    for (const child of children) child.kill();
  }
}
