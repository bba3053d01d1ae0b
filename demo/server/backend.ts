// The demo's backend: the gateway (the in-process sandbox, or the real one from the PAY_*
// variables), the stores (memory, or Redis with REDIS_URL), the loop log and the routes.
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import { createGateway, createMemoryIdempotencyStore, createMemoryPaymentStore } from '../../src/server/index.js';
import { createLoopLog, type LoopLog, type LoopStep } from '../loop-log.js';
import { readDemoConfig, safeOrigin, type Env, type Log } from './config.js';
import { createDemoRoutes, DEMO_PATHS, type Handler } from './routes.js';

export type DemoMode = 'sandbox' | 'gateway';

export type DemoBackend = {
  mode: DemoMode;
  /** The real gateway's origin in `gateway` mode (never the keys). */
  gatewayOrigin: string | undefined;
  /** `memory`, or `redis` when REDIS_URL is set. */
  stores: 'memory' | 'redis';
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
  /** Stops the sandbox's webhook retries and closes the Redis connection (once, however often called). */
  close(): Promise<void>;
};

/** Where the sandbox's webhooks go: this path on the address the demo listens at (known once it listens). */
const SANDBOX_WEBHOOK_URL = `http://demo.invalid${DEMO_PATHS.webhook}`;

/**
 * Reads the PAY_* variables (all set → the real gateway, otherwise the in-process sandbox) and
 * REDIS_URL (set → both stores in Redis, else in memory).
 */
export async function createDemoBackend(env: Env = process.env, log: Log = console): Promise<DemoBackend> {
  const config = readDemoConfig(env, log);
  const real = config.gateway;
  let listeningOrigin: string | undefined;
  const loop = createLoopLog();
  const sandbox = real ? undefined : demoSandbox(() => listeningOrigin, loop);
  const gateway = createGateway(
    real ?? { baseUrl: 'https://sandbox.pay-widget.invalid', publicKey: SANDBOX_PUBLIC_KEY, secretKey: SANDBOX_SECRET_KEY, fetch: sandbox!.fetch },
  );
  const redis = config.redisUrl ? await redisStores(config.redisUrl) : undefined;
  const routes = createDemoRoutes({
    gateway,
    payments: redis?.payments ?? createMemoryPaymentStore(),
    idempotency: redis?.idempotency ?? createMemoryIdempotencyStore(),
    statusSecret: config.statusSecret,
    publicOrigin: () => config.publicOrigin ?? listeningOrigin,
    sandbox,
    loop,
    log,
  });

  let closed: Promise<void> | undefined;
  return {
    mode: real ? 'gateway' : 'sandbox',
    gatewayOrigin: real ? safeOrigin(real.baseUrl) : undefined,
    stores: redis ? 'redis' : 'memory',
    routes,
    steps: (after = 0) => loop.since(after),
    describe: () => {
      const stores = redis ? 'stores in Redis (REDIS_URL)' : 'stores in memory';
      return real
        ? `real gateway at ${safeOrigin(real.baseUrl)} (PAY_* variables); ${stores}; register <PAY_PUBLIC_ORIGIN>${DEMO_PATHS.webhook} as its webhook URL`
        : `offline sandbox gateway, webhooks to ${DEMO_PATHS.webhook}; ${stores}; "the customer paid" completes payments`;
    },
    listeningAt(url) {
      listeningOrigin ??= new URL(url).origin;
    },
    close() {
      sandbox?.close();
      return (closed ??= redis?.close() ?? Promise.resolve());
    },
  };
}

/** The in-process sandbox, its webhooks posted over the socket to this very server, as a gateway would. */
function demoSandbox(listeningOrigin: () => string | undefined, loop: LoopLog) {
  return createSandboxGateway({
    merchantName: 'Ada Books',
    latencyMs: 250,
    slowMs: 20_000,
    webhookUrl: SANDBOX_WEBHOOK_URL,
    fetch: (input, init) => {
      const origin = listeningOrigin();
      if (!origin) return Promise.reject(new Error('the demo is not listening yet'));
      return globalThis.fetch(new URL(new URL(String(input)).pathname, origin), init);
    },
    webhookRetryDelaysMs: [2_000, 10_000, 30_000],
    onWebhook: (attempt) => loop.delivery(attempt),
  });
}

/** REDIS_URL's stores, through the optional `redis` package, imported only when it is set. */
async function redisStores(url: string) {
  const [{ createClient }, { createRedisStores }] = await Promise.all([import('redis'), import('../../src/server/redis.js')]);
  const client = await createClient({ url }).connect();
  return { ...createRedisStores(client, { prefix: 'pay-widget-demo:' }), close: async () => void (await client.quit()) };
}
