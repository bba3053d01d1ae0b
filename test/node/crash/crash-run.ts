// One crash run: a sandbox gateway served over HTTP in this process, the merchant's server as a
// child process (merchant-process.ts) killed and restarted at random, the store restarted once,
// customers paying, retrying and closing tabs; then a fault-free server whose reconciler sweeps
// until nothing is due. Returns what the sandbox says was paid and what `onPaid` recorded.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { build } from 'esbuild';
import { createSandboxGateway } from '../../../src/sandbox/index.js';
import { freePort } from '../loopback.js';
import { delay as pause, USSD_REQUEST } from '../server-fixtures.js';

export type CrashStore = {
  kind: 'redis' | 'postgres' | 'sqlite';
  /** The server's URL, or the SQLite file's path. */
  url: string;
  restart(): Promise<void>;
  /**
   * The references `onPaid` recorded, one per run of its work (duplicates kept): on PostgreSQL its
   * table; on Redis and SQLite, the `work` lines of the append-only file it was given.
   */
  fulfilments(file: string): Promise<string[]>;
};

export type CrashResult = {
  payments: number;
  /** References the sandbox initiated, and those it says the customer paid. */
  initiated: Set<string>;
  paid: Set<string>;
  /** Every reference a customer was given, and the customers given more than one. */
  given: Set<string>;
  keysWithTwoReferences: number;
  fulfilments: string[];
  /** Runs of `onPaid`'s work for a reference after the ledger had recorded it fulfilled (must be none). */
  workAfterMark: string[];
  /** Customers who got no payment: the last answer each had. */
  refusals: string[];
  /** `kill-before-work`/`kill-after-work` lines: where the server killed itself, by reference. */
  selfKills: { where: string; reference: string }[];
  serverKills: number;
  sweeps: number;
};

const PAYMENTS = 200;
const CUSTOMERS_AT_ONCE = 8;
const TAB_KEPT_OPEN = 0.5;
const WEBHOOK_DROPPED = 0.5;

export async function crashRun(store: CrashStore, folder: string, payments = PAYMENTS): Promise<CrashResult> {
  const fulfilmentsFile = `${folder}/fulfilments.log`;
  const killsFile = `${folder}/kills.log`;
  writeFileSync(fulfilmentsFile, '');
  writeFileSync(killsFile, '');
  const merchantPort = await freePort();
  const merchant = `http://127.0.0.1:${merchantPort}`;

  const initiated = new Set<string>();
  const dropped = new Set<string>();
  const sandbox = createSandboxGateway({
    webhookUrl: `${merchant}/webhook`,
    webhookRetryDelaysMs: [300, 1_000, 2_000],
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const body = (await request.clone().json()) as {
        notificationItems?: { notificationRequestItem?: { data?: { reference?: string } } }[];
      };
      const reference = body.notificationItems?.[0]?.notificationRequestItem?.data?.reference;
      if (reference && dropped.has(reference)) throw new TypeError('fetch failed (webhook dropped by the crash test)');
      return fetch(request);
    },
  });
  const gatewayServer = await serve(async (request) => {
    if (new URL(request.url).pathname.endsWith('/initiates')) {
      const body = (await request.clone().json()) as { paymentReference?: string };
      if (body.paymentReference) initiated.add(body.paymentReference);
    }
    return sandbox(request);
  });

  const env = {
    ...process.env,
    CRASH_PORT: String(merchantPort),
    CRASH_GATEWAY_URL: gatewayServer.url,
    CRASH_FULFILMENTS: fulfilmentsFile,
    CRASH_KILLS: killsFile,
    ...storeEnv(store),
  };
  const server = merchantServer(env, await bundleMerchant(folder));
  let serverKills = 0;

  await server.start({ faults: true });
  const killer = loopUntilStopped(async () => {
    await pause(1_500 + Math.random() * 2_500);
    serverKills += 1;
    await server.restart({ faults: true });
  });
  const storeRestart = (async () => {
    await pause(4_000);
    await store.restart();
  })();

  const given = new Set<string>();
  const refusals: string[] = [];
  let keysWithTwoReferences = 0;
  let next = 0;
  const customer = async () => {
    while (next < payments) {
      next += 1;
      const { references, lastAnswer } = await pay(merchant);
      if (references.size > 1) keysWithTwoReferences += 1;
      if (references.size === 0) refusals.push(lastAnswer);
      const [reference] = references;
      if (!reference) continue;
      given.add(reference);
      const roll = Math.random();
      if (Math.random() < WEBHOOK_DROPPED) dropped.add(reference);
      if (roll < 0.7) sandbox.setStatus(reference, 'SUCCESS');
      else if (roll < 0.85) sandbox.setStatus(reference, 'FAILED');
      if (Math.random() < TAB_KEPT_OPEN) await pollStatus(merchant, reference);
    }
  };
  await Promise.all(Array.from({ length: CUSTOMERS_AT_ONCE }, customer));
  await storeRestart;
  await killer.stop();
  await sandbox.webhooksSettled();

  // The last restart: no faults, the reconciler swept by hand with the clock moved past its schedule.
  await server.restart({ faults: false });
  const sweeps = await sweepUntilNothingDue(merchant);
  await server.stop();
  sandbox.close();
  await gatewayServer.close();

  const paid = new Set([...initiated].filter((reference) => sandbox.lookup(reference)?.status === 'SUCCESS'));
  const selfKills = readFileSync(killsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [where, reference] = line.split(' ');
      return { where: where!, reference: reference! };
    });
  const fulfilments = await store.fulfilments(fulfilmentsFile);
  const workAfterMark = findWorkAfterMark(fileLines(fulfilmentsFile));
  return {
    payments,
    initiated,
    paid,
    given,
    keysWithTwoReferences,
    fulfilments,
    workAfterMark,
    refusals,
    selfKills,
    serverKills,
    sweeps,
  };
}

export function storeEnv(store: CrashStore): NodeJS.ProcessEnv {
  if (store.kind === 'redis') return { CRASH_REDIS_URL: store.url };
  if (store.kind === 'postgres') return { CRASH_POSTGRES_URL: store.url };
  // The bundle lives in a temporary folder: the SQLite driver (native, not bundled) is found through NODE_PATH.
  return { CRASH_SQLITE_FILE: store.url, NODE_PATH: fileURLToPath(new URL('../../../node_modules', import.meta.url)) };
}

/** `work` lines that come after a `marked` line for the same reference, in the order they were appended. */
function findWorkAfterMark(lines: string[]): string[] {
  const marked = new Set<string>();
  const late: string[] = [];
  for (const line of lines) {
    const [kind, reference] = line.split(' ') as [string, string];
    if (kind === 'marked') marked.add(reference);
    else if (marked.has(reference)) late.push(reference);
  }
  return late;
}

/** A customer's attempt: the same Idempotency-Key until an answer, through every restart. The references it was given. */
export async function pay(merchant: string): Promise<{ references: Set<string>; lastAnswer: string }> {
  const key = `crash-${crypto.randomUUID()}`;
  const references = new Set<string>();
  let lastAnswer = 'no answer';
  // A patient customer: Try again for up to two minutes, however often the server is down meanwhile.
  const patience = Date.now() + 120_000;
  while (Date.now() < patience) {
    try {
      const response = await fetch(`${merchant}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(USSD_REQUEST),
        signal: AbortSignal.timeout(5_000),
      });
      const body = (await response.json()) as {
        order?: { paymentReference?: string };
        error?: { code?: string; retryable?: boolean };
      };
      if (response.ok && body.order?.paymentReference) {
        references.add(body.order.paymentReference);
        return { references, lastAnswer: String(response.status) };
      }
      lastAnswer = `${response.status} ${body.error?.code ?? ''}`;
      // What the widget does: Try again only where retrying can help.
      if (body.error?.retryable === false) return { references, lastAnswer };
    } catch (error) {
      // The server was killed under this request: the customer presses Try again.
      lastAnswer = String(error);
    }
    await pause(200);
  }
  return { references, lastAnswer };
}

async function pollStatus(merchant: string, reference: string): Promise<void> {
  for (let poll = 0; poll < 4; poll += 1) {
    await pause(250);
    try {
      await fetch(`${merchant}/status?paymentReference=${encodeURIComponent(reference)}`, {
        signal: AbortSignal.timeout(3_000),
      });
    } catch {
      // A killed server: the widget polls again.
    }
  }
}

/**
 * Moves the server's clock a day on and sweeps, until a sweep after a day finds nothing at all to do.
 * A lease left by a process killed inside `onPaid` lapses by the store's clock (Redis, PostgreSQL),
 * which moving the server's does not move: a sweep that found one busy (`pending`) waits a second.
 */
export async function sweepUntilNothingDue(merchant: string): Promise<number> {
  for (let sweep = 1; sweep <= 40; sweep += 1) {
    await fetch(`${merchant}/advance?ms=${25 * 60 * 60 * 1000}`, { method: 'POST' });
    const counts = (await (await fetch(`${merchant}/reconcile`, { method: 'POST' })).json()) as Record<string, number>;
    if (Object.values(counts).every((count) => count === 0)) return sweep;
    if (counts.pending) await pause(1_000);
  }
  throw new Error('the reconciler still found work after 40 sweeps');
}

type ServerControl = {
  start(options: { faults: boolean }): Promise<void>;
  restart(options: { faults: boolean }): Promise<void>;
  stop(): Promise<void>;
};

/** merchant-process.ts as one file, so that each restart takes a fraction of a second, as a deployed server's would. */
export async function bundleMerchant(folder: string): Promise<string> {
  const outfile = `${folder}/merchant-process.mjs`;
  await build({
    entryPoints: [new URL('./merchant-process.ts', import.meta.url).pathname],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['pg-native', 'libsql'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  return outfile;
}

/** The merchant's server process: started, SIGKILLed and started again on the same port. */
export function merchantServer(env: NodeJS.ProcessEnv, script: string): ServerControl {
  let child: ChildProcess | undefined;

  async function start({ faults }: { faults: boolean }): Promise<void> {
    for (let tries = 0; ; tries += 1) {
      const started = spawn(process.execPath, [script], {
        env: { ...env, CRASH_FAULTS: faults ? '1' : '0' },
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      let errors = '';
      started.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const ready = await new Promise<boolean>((resolve) => {
        started.once('message', () => resolve(true));
        started.once('exit', () => resolve(false));
      });
      if (ready) {
        child = started;
        return;
      }
      // A store still coming back: start again, as a process manager would.
      if (tries === 20) throw new Error(`the merchant server would not start: ${errors.slice(-800)}`);
      await pause(250);
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }

  return {
    start,
    stop,
    async restart(options) {
      await stop();
      await start(options);
    },
  };
}

function loopUntilStopped(step: () => Promise<void>): { stop(): Promise<void> } {
  let stopped = false;
  const running = (async () => {
    while (!stopped) await step();
  })();
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}

export async function serve(
  handler: (request: Request) => Promise<Response>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(getRequestListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export function fileLines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}
