// The demo's server side, as `npm start` (scripts/start.mjs) and the tests use it: `startDemo()`
// serves the page built for production, the script tag's files and the endpoints on one
// 127.0.0.1 server, as a shop runs them. The parts live in demo/server/:
//
//   config.ts          the environment → settings (PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY or
//                      PAY_ACCESS_TOKEN, PAY_PUBLIC_ORIGIN, PAY_STATUS_SECRET, REDIS_URL,
//                      PAY_RECONCILE_INTERVAL_MS)
//   backend.ts         createDemoBackend: the gateway, the stores, the loop log, the routes, the
//                      reconciler
//   routes.ts          createPayments, mounted for /pay/session (the widget's session-url: records
//                      each payment PENDING and signs its statusToken), /pay/status (the status URL
//                      the session answer names: the ledger, a payment PENDING for 5 s re-queried)
//                      and /pay/webhook (the gateway's notification, re-verified by query, settles
//                      the ledger, onPaid once); its reconciler sweeps every 15 s (steps logged)
//   demo-endpoints.ts  POST /pay/simulate  { paymentReference, status: "SUCCESS" | "FAILED" } is "the
//                                          customer paid" (or was declined) in the sandbox
//                      GET  /demo/events   ?after=<id> → the loop's steps since then (loop-log.ts)
//                      GET, POST /demo/webhook-lost  { lost: boolean }: the "webhook lost" switch
//   webhook-lost.ts    the switch: webhooks of payments started while it is on are dropped
//   order.ts           createDemoOrder: what the demo sells (no reference: derived from the key)
//   page.ts            buildDemoPage: demo/ built by Vite for production (the panel's script and styles)
//   http.ts            demoListener: the routes, /pay-widget/ from dist/, the built page
//
// Offline and with no set-up, the gateway is the in-process sandbox, and its webhooks come back to
// this server's own /pay/webhook over the socket: pay → the customer paid → webhook → ledger →
// status poll → pay-complete. With PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY (or
// PAY_ACCESS_TOKEN) set, the same endpoints talk to that gateway (register
// `<PAY_PUBLIC_ORIGIN>/pay/webhook` as the webhook URL in its dashboard); REDIS_URL keeps the
// idempotency records and the ledger in Redis (the optional `redis` package, loaded only then).
// Otherwise `npm start` keeps them in a SQLite file in .pay-widget/ (data-folder.ts), with the
// sandbox's payments and the status tokens' secret beside it: a payment outlives a restart.
//
// The order's callbackUrl and redirectUrl are built from PAY_PUBLIC_ORIGIN when it is set (the
// address the gateway and the customer reach the demo at, e.g. a tunnel), otherwise from the URL
// the dev server listens on: never from the request's Host header, which the client chooses.
//
// Besides the package's public entry points (`pay-widget/server`, `pay-widget/server/redis`,
// `pay-widget/sandbox`, here as their source files), only the server's shared request checks
// (src/server/http/checks.ts) are used. Node's request/response are turned into Fetch ones by
// @hono/node-server's getRequestListener.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createLogger, type LogLevel } from 'vite';
import type { LoopStep } from './loop-log.js';
import { createDemoBackend, type DemoMode } from './server/backend.js';
import type { Env } from './server/config.js';
import { demoListener } from './server/http.js';
import { buildDemoPage } from './server/page.js';

export { createDemoBackend, type DemoBackend, type DemoMode } from './server/backend.js';
export { DEMO_DATA_FOLDER } from './server/data-folder.js';
export { createDemoOrder } from './server/order.js';
export { DEMO_PATHS } from './server/routes.js';

export type StartDemoOptions = {
  /** Default 5173; the next free one is used when it is taken. 0: any free port. */
  port?: number;
  /**
   * Default process.env; only PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY, PAY_ACCESS_TOKEN,
   * PAY_PUBLIC_ORIGIN, PAY_STATUS_SECRET, REDIS_URL and PAY_RECONCILE_INTERVAL_MS are read.
   */
  env?: Env;
  /** The log level; default 'info'. */
  logLevel?: LogLevel;
  /** Where the ledger and the sandbox's payments outlive a restart (`npm start`: DEMO_DATA_FOLDER); default: memory. */
  dataFolder?: string;
};

export type RunningDemo = {
  /** Where to open the demo, e.g. http://127.0.0.1:5173/ */
  url: string;
  mode: DemoMode;
  describe(): string;
  /** The payment loop's steps so far (what the page's server log shows). */
  steps(): LoopStep[];
  close(): Promise<void>;
};

/** The script tag's files, as `npm run build` (or `npm start` before it starts) makes them. */
export const SCRIPT_FOLDER = fileURLToPath(new URL('../dist/', import.meta.url));
/** How many ports after the one asked for are tried when it is taken. */
const PORT_TRIES = 20;

/**
 * Serves the demo on 127.0.0.1 as a shop would: the page built for production, the widget from
 * the script tag's files in dist/ (built first by `npm start`), and the payments handler beside them.
 */
export async function startDemo(options: StartDemoOptions = {}): Promise<RunningDemo> {
  if (!existsSync(`${SCRIPT_FOLDER}pay-widget.iife.js`)) {
    throw new Error('dist/pay-widget.iife.js is missing: run npm run build (npm start builds it first)');
  }
  const logger = createLogger(options.logLevel ?? 'info', { allowClearScreen: false });
  const backend = await createDemoBackend(
    options.env ?? process.env,
    {
      info: (message) => logger.info(message, { timestamp: true }),
      warn: (message) => logger.warn(message, { timestamp: true }),
    },
    { dataFolder: options.dataFolder },
  );
  let url: string | undefined;
  let page;
  let server: Server | undefined;
  try {
    page = await buildDemoPage(logger);
    server = createServer(demoListener(backend, { page: page.dir, script: SCRIPT_FOLDER }, () => url));
    url = `http://127.0.0.1:${await listen(server, options.port ?? 5173)}/`;
  } catch (error) {
    server?.close();
    await page?.close();
    await backend.close();
    throw error;
  }
  backend.listeningAt(url);
  const listening = server;
  const built = page;
  return {
    url,
    mode: backend.mode,
    describe: () => backend.describe(),
    steps: () => backend.steps(),
    close: async () => {
      listening.closeAllConnections();
      await new Promise((resolve) => listening.close(resolve));
      await backend.close();
      await built.close();
    },
  };
}

/** Listens on 127.0.0.1 at `port`, or the next free one (`0`: any); resolves to the port. */
async function listen(server: Server, port: number): Promise<number> {
  for (let tried = 0; ; tried += 1) {
    const wanted = port === 0 ? 0 : port + tried;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(wanted, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      return (server.address() as { port: number }).port;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || port === 0 || tried >= PORT_TRIES) throw error;
    }
  }
}
