// The demo's server side, as `npm start` (scripts/start.mjs) and the tests use it: `startDemo()`
// runs Vite on demo/ with the endpoints mounted. The parts live in demo/server/:
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
//   vite-plugin.ts     payDemo: mounts the routes on Vite's dev server
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
import { fileURLToPath } from 'node:url';
import { createLogger, createServer, type LogLevel } from 'vite';
import type { LoopStep } from './loop-log.js';
import { createDemoBackend, type DemoMode } from './server/backend.js';
import type { Env } from './server/config.js';
import { payDemo } from './server/vite-plugin.js';

export { createDemoBackend, type DemoBackend, type DemoMode } from './server/backend.js';
export { DEMO_DATA_FOLDER } from './server/data-folder.js';
export { createDemoOrder } from './server/order.js';
export { DEMO_PATHS } from './server/routes.js';
export { payDemo } from './server/vite-plugin.js';

export type StartDemoOptions = {
  /** Default 5173; the next free one is used when it is taken. 0: any free port. */
  port?: number;
  /**
   * Default process.env; only PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY, PAY_ACCESS_TOKEN,
   * PAY_PUBLIC_ORIGIN, PAY_STATUS_SECRET, REDIS_URL and PAY_RECONCILE_INTERVAL_MS are read.
   */
  env?: Env;
  /** Vite's log level; default 'info'. */
  logLevel?: LogLevel;
  /** Watch files for hot reload; default true. */
  watch?: boolean;
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
  /** Vite's own URL printing and keyboard shortcuts, for the terminal. */
  printUrls(): void;
  bindShortcuts(): void;
  close(): Promise<void>;
};

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const demoRoot = fileURLToPath(new URL('.', import.meta.url));

/** Starts Vite on demo/ with the endpoints mounted, on 127.0.0.1. */
export async function startDemo(options: StartDemoOptions = {}): Promise<RunningDemo> {
  const logger = createLogger(options.logLevel ?? 'info', { allowClearScreen: false });
  const backend = await createDemoBackend(
    options.env ?? process.env,
    {
      info: (message) => logger.info(message, { timestamp: true }),
      warn: (message) => logger.warn(message, { timestamp: true }),
    },
    { dataFolder: options.dataFolder },
  );
  let server;
  try {
    server = await createServer({
      // The colleague's vite.config.ts (its `serve` settings), with this merged over it. Named
      // explicitly: Vite would otherwise look for it in `root`.
      configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
      root: demoRoot,
      customLogger: logger,
      clearScreen: false,
      server: {
        host: '127.0.0.1',
        port: options.port ?? 5173,
        strictPort: false,
        // Vite's own list, and the demo's data folder (the ledger, the status tokens' secret) never served.
        fs: { allow: [repoRoot], deny: ['.env', '.env.*', '*.{crt,pem}', '**/.git/**', '**/.pay-widget/**'] },
        ...(options.watch === false ? { watch: null } : {}),
      },
      plugins: [payDemo({ backend })],
    });
    await server.listen();
  } catch (error) {
    await server?.close();
    await backend.close();
    throw error;
  }
  const url = server.resolvedUrls?.local[0];
  if (!url) {
    await server.close();
    await backend.close();
    throw new Error('pay-widget demo: Vite started but reported no local URL');
  }
  backend.listeningAt(url);
  const vite = server;
  return {
    url,
    mode: backend.mode,
    describe: () => backend.describe(),
    steps: () => backend.steps(),
    printUrls: () => vite.printUrls(),
    bindShortcuts: () => vite.bindCLIShortcuts({ print: true }),
    close: async () => {
      await vite.close();
      await backend.close();
    },
  };
}
