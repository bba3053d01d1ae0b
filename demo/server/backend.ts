// The demo's backend: the gateway (the in-process sandbox, or the real one from the PAY_*
// variables), the stores (a SQLite file in the data folder, Redis with REDIS_URL, or memory when
// given no folder, as in tests), the loop log, the routes, the reconciler sweeping the ledger, and
// (with the sandbox) the "webhook lost" switch.
import {
  createSandboxGateway,
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  type SandboxStorage,
} from '../../src/sandbox/index.js';
import { createGateway, createMemoryIdempotencyStore, createMemoryPaymentStore } from '../../src/server/internal.js';
import { createLoopLog, type LoopLog, type LoopStep } from '../loop-log.js';
import { readDemoConfig, safeOrigin, type Env, type Log } from './config.js';
import { openDemoData } from './data-folder.js';
import { createDemoRoutes, DEMO_PATHS, type Handler } from './routes.js';
import { createWebhookLost, type WebhookLost } from './webhook-lost.js';

export type DemoMode = 'sandbox' | 'gateway';

export type DemoBackend = {
  mode: DemoMode;
  /** The real gateway's origin in `gateway` mode (never the keys). */
  gatewayOrigin: string | undefined;
  /** PAY_PUBLIC_ORIGIN's host (a tunnel's, say), the one name besides this machine's the demo answers to. */
  publicHost: string | undefined;
  /** `sqlite` (the data folder's ledger), `redis` when REDIS_URL is set, `memory` with no data folder. */
  stores: 'sqlite' | 'redis' | 'memory';
  routes: Record<string, Handler>;
  /** The loop's steps after `id` (0: all kept). */
  steps(after?: number): LoopStep[];
  /** One line for the terminal. */
  describe(): string;
  /**
   * Tells the backend the URL the server listens on, the origin of callbackUrl and redirectUrl
   * unless PAY_PUBLIC_ORIGIN is set, and where the sandbox posts its webhooks. The first call counts.
   */
  listeningAt(url: string): void;
  /** Stops the reconciler (after a sweep under way) and the sandbox's webhook retries, and closes the Redis connection (once, however often called). */
  close(): Promise<void>;
};

export type DemoBackendOptions = {
  /** The payments' clock, for tests (the ledger's first check of a payment is a minute after it started); default `Date.now`. */
  reconcilerNow?: () => number;
  /**
   * Where the ledger (SQLite), the sandbox's payments and the status tokens' secret outlive a
   * restart: `npm start` passes DEMO_DATA_FOLDER. Without one, everything is kept in memory.
   */
  dataFolder?: string;
};

/** Where the sandbox's webhooks go: this path on the address the demo listens at (known once it listens). */
const SANDBOX_WEBHOOK_URL = `http://demo.invalid${DEMO_PATHS.webhook}`;

/**
 * Reads the PAY_* variables (all set → the real gateway, otherwise the in-process sandbox) and
 * REDIS_URL (set → both stores in Redis, else in the data folder's SQLite file, or in memory).
 */
export async function createDemoBackend(
  env: Env = process.env,
  log: Log = console,
  options: DemoBackendOptions = {},
): Promise<DemoBackend> {
  const config = readDemoConfig(env, log);
  const real = config.gateway;
  let listeningOrigin: string | undefined;
  const loop = createLoopLog();
  const webhookLost = real ? undefined : createWebhookLost();
  const stores = await demoStores(config.redisUrl, options.dataFolder);
  const sandbox = webhookLost && demoSandbox(() => listeningOrigin, loop, webhookLost, stores.sandboxStorage);
  const gateway = createGateway(
    real ?? {
      baseUrl: 'https://sandbox.pay-widget.invalid',
      publicKey: SANDBOX_PUBLIC_KEY,
      secretKey: SANDBOX_SECRET_KEY,
      fetch: sandbox!.fetch,
    },
  );
  const { payments } = stores;
  const { routes, close: stopPayments } = createDemoRoutes({
    gateway,
    payments,
    idempotency: stores.idempotency,
    // A secret kept in the data folder, unless PAY_STATUS_SECRET is set: status tokens outlive a restart.
    statusSecret: env.PAY_STATUS_SECRET?.trim() ? config.statusSecret : (stores.statusSecret ?? config.statusSecret),
    transferValidityMs: config.transferValidityMs,
    publicOrigin: () => config.publicOrigin ?? listeningOrigin,
    configuredOrigin: config.publicOrigin,
    reconcileIntervalMs: config.reconcileIntervalMs,
    now: options.reconcilerNow,
    sandbox,
    webhookLost,
    loop,
    log,
  });

  let closed: Promise<void> | undefined;
  return {
    mode: real ? 'gateway' : 'sandbox',
    gatewayOrigin: real ? safeOrigin(real.baseUrl) : undefined,
    publicHost: config.publicOrigin ? new URL(config.publicOrigin).host : undefined,
    stores: stores.kind,
    routes,
    steps: (after = 0) => loop.since(after),
    describe: () => {
      const kept = `${stores.where}; the reconciler sweeps every ${config.reconcileIntervalMs / 1000} s`;
      return real
        ? `real gateway at ${safeOrigin(real.baseUrl)} (PAY_* variables); ${kept}; register <PAY_PUBLIC_ORIGIN>${DEMO_PATHS.webhook} as its webhook URL`
        : `offline sandbox gateway, webhooks to ${DEMO_PATHS.webhook}; ${kept}; "the customer paid" completes payments`;
    },
    listeningAt(url) {
      listeningOrigin ??= new URL(url).origin;
    },
    close() {
      sandbox?.close();
      return (closed ??= stopPayments().then(() => stores.close()));
    },
  };
}

/** The in-process sandbox, its webhooks posted over the socket to this very server, as a gateway would. */
function demoSandbox(
  listeningOrigin: () => string | undefined,
  loop: LoopLog,
  webhookLost: WebhookLost,
  storage: SandboxStorage | undefined,
) {
  return createSandboxGateway({
    storage,
    merchantName: 'Ada Books',
    latencyMs: 250,
    slowMs: 20_000,
    webhookUrl: SANDBOX_WEBHOOK_URL,
    fetch: webhookLost.dropping((input, init) => {
      const origin = listeningOrigin();
      if (!origin) return Promise.reject(new Error('the demo is not listening yet'));
      return globalThis.fetch(new URL(new URL(String(input)).pathname, origin), init);
    }),
    webhookRetryDelaysMs: [2_000, 10_000, 30_000],
    onWebhook: (attempt) => loop.delivery(attempt, webhookLost.has(attempt.paymentReference)),
  });
}

type DemoStores = {
  kind: DemoBackend['stores'];
  idempotency: ReturnType<typeof createMemoryIdempotencyStore>;
  payments: ReturnType<typeof createMemoryPaymentStore>;
  /** Where they are, for the terminal. */
  where: string;
  sandboxStorage?: SandboxStorage;
  statusSecret?: string;
  close(): Promise<void>;
};

/** Redis with REDIS_URL; else the data folder's SQLite ledger (and the sandbox's file beside it); else memory. */
async function demoStores(redisUrl: string | undefined, dataFolder: string | undefined): Promise<DemoStores> {
  if (redisUrl) return { kind: 'redis', where: 'stores in Redis (REDIS_URL)', ...(await redisStores(redisUrl)) };
  if (dataFolder) {
    const data = openDemoData(dataFolder);
    return {
      kind: 'sqlite',
      where: `ledger in ${data.ledgerFile} (SQLite: payments survive a restart)`,
      ...data.stores,
      sandboxStorage: data.sandboxStorage,
      statusSecret: data.statusSecret,
      close: async () => data.stores.close(),
    };
  }
  return {
    kind: 'memory',
    where: 'stores in memory',
    idempotency: createMemoryIdempotencyStore(),
    payments: createMemoryPaymentStore(),
    close: async () => {},
  };
}

/** REDIS_URL's stores, through the optional `redis` package, imported only when it is set. */
async function redisStores(url: string) {
  const [{ createClient }, { createRedisStores }] = await Promise.all([
    import('redis'),
    import('../../src/server/stores/redis/index.js'),
  ]);
  const client = await createClient({ url }).connect();
  return {
    ...createRedisStores(client, { prefix: 'pay-widget-demo:' }),
    close: async () => void (await client.quit()),
  };
}
