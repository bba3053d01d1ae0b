/**
 * The demo's server side: the session, status and webhook endpoints, mounted on Vite's dev server
 * by a plugin, and `startDemo()`, which `npm start` (scripts/start.mjs) and the e2e test both use.
 *
 *   POST /pay/session   createSessionHandler: the widget's session-url; records each payment PENDING
 *                       in the ledger and signs its statusToken (PAY_STATUS_SECRET, or a random
 *                       secret made at start)
 *   GET  /pay/status    createStatusHandler: the widget's status-url, answered from the ledger (a
 *                       payment PENDING for 5 s is re-queried through the gateway)
 *   POST /pay/webhook   createWebhookHandler: the gateway's notification, re-verified by query,
 *                       settles the ledger entry and runs onPaid once
 *   POST /pay/simulate  demo only: { paymentReference, status: "SUCCESS" | "FAILED" } is "the
 *                       customer paid" (or was declined) in the sandbox, which then posts its webhook
 *   GET  /demo/events   demo only: ?after=<id> → the loop's steps since then (demo/loop-log.ts)
 *
 * Offline and with no set-up, the gateway is the in-process sandbox, and its webhooks come back to
 * this server's own /pay/webhook over the socket: pay → the customer paid → webhook → ledger →
 * status poll → pay-complete. With PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY (or
 * PAY_ACCESS_TOKEN) set, the same endpoints talk to that gateway (register
 * `<PAY_PUBLIC_ORIGIN>/pay/webhook` as the webhook URL in its dashboard); REDIS_URL keeps the
 * idempotency records and the ledger in Redis (the optional `redis` package, loaded only then).
 *
 * The order's callbackUrl and redirectUrl are built from PAY_PUBLIC_ORIGIN when it is set (the
 * address the gateway and the customer reach the demo at, e.g. a tunnel), otherwise from the URL
 * the dev server listens on: never from the request's Host header, which the client chooses.
 *
 * Only the package's public entry points are imported (`pay-widget/server`, `pay-widget/server/redis`,
 * `pay-widget/sandbox`, here as their source files). Node's request/response are turned into Fetch
 * ones by @hono/node-server's getRequestListener.
 */
import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createLogger, createServer, type LogLevel, type Plugin } from 'vite';
import { createSandboxGateway, MAGIC_AMOUNTS, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../src/sandbox/index.js';
import {
  createGateway,
  createMemoryIdempotencyStore,
  createMemoryPaymentStore,
  createSessionHandler,
  createStatusHandler,
  createWebhookHandler,
  OrderError,
  type IdempotencyStore,
  type OrderResolver,
  type PaymentStore,
} from '../src/server/index.js';
import { createLoopLog, type LoopStep } from './loop-log.js';

type Handler = (request: Request) => Promise<Response>;
type Env = Record<string, string | undefined>;
type Log = { info(message: string): void; warn(message: string): void };

/** What the demo sells, decided here on the server. The widget's amount is a hint accepted within these bounds. */
export const DEMO_ORDER = {
  defaultAmount: '5000',
  minAmount: 100,
  maxAmount: 1_000_000,
  currency: 'NGN',
  country: 'NG',
} as const;

export const DEMO_PATHS = {
  session: '/pay/session',
  status: '/pay/status',
  webhook: '/pay/webhook',
  simulate: '/pay/simulate',
  events: '/demo/events',
} as const;

const SIMULATED_MESSAGES = {
  SUCCESS: 'Simulated by the demo: the customer approved the payment.',
  FAILED: "Simulated by the demo: the customer's bank declined the payment.",
} as const;

/** Where the sandbox's webhooks go: this path on the address the demo listens at (known once it listens). */
const SANDBOX_WEBHOOK_URL = `http://demo.invalid${DEMO_PATHS.webhook}`;

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

/** The real gateway's settings, when PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY (or PAY_ACCESS_TOKEN) are all set. */
function gatewaySettings(env: Env, log: Log) {
  const value = (name: string) => env[name]?.trim() || undefined;
  const baseUrl = value('PAY_BASE_URL');
  const publicKey = value('PAY_PUBLIC_KEY');
  const secretKey = value('PAY_SECRET_KEY');
  const accessToken = value('PAY_ACCESS_TOKEN');
  const given = { PAY_BASE_URL: baseUrl, PAY_PUBLIC_KEY: publicKey, 'PAY_SECRET_KEY (or PAY_ACCESS_TOKEN)': secretKey ?? accessToken };
  const missing = Object.entries(given).filter(([, set]) => !set).map(([name]) => name);
  if (missing.length === 0) return { baseUrl: baseUrl!, publicKey: publicKey!, ...(secretKey ? { secretKey } : { accessToken: accessToken! }) };
  if (missing.length < 3) log.warn(`pay-widget demo: ${missing.join(', ')} not set; using the offline sandbox.`);
  return undefined;
}

/** REDIS_URL's stores, through the optional `redis` package, imported only when it is set. */
async function redisStores(url: string) {
  const [{ createClient }, { createRedisStores }] = await Promise.all([import('redis'), import('../src/server/redis.js')]);
  const client = await createClient({ url }).connect();
  return { ...createRedisStores(client, { prefix: 'pay-widget-demo:' }), close: async () => void (await client.quit()) };
}

/**
 * Reads the PAY_* variables (all set → the real gateway, otherwise the in-process sandbox) and
 * REDIS_URL (set → both stores in Redis, else in memory).
 */
export async function createDemoBackend(env: Env = process.env, log: Log = console): Promise<DemoBackend> {
  const real = gatewaySettings(env, log);
  const configuredOrigin = publicOriginFrom(env.PAY_PUBLIC_ORIGIN, log);
  let listeningOrigin: string | undefined;
  const loop = createLoopLog();

  const sandbox = real
    ? undefined
    : createSandboxGateway({
        merchantName: 'Ada Books',
        latencyMs: 250,
        slowMs: 20_000,
        webhookUrl: SANDBOX_WEBHOOK_URL,
        // Over the socket to this very server, as a gateway would post it.
        fetch: (input, init) => {
          if (!listeningOrigin) return Promise.reject(new Error('the demo is not listening yet'));
          return globalThis.fetch(new URL(new URL(String(input)).pathname, listeningOrigin), init);
        },
        webhookRetryDelaysMs: [2_000, 10_000, 30_000],
        onWebhook: (attempt) => loop.delivery(attempt),
      });
  const gateway = createGateway(
    real ?? { baseUrl: 'https://sandbox.pay-widget.invalid', publicKey: SANDBOX_PUBLIC_KEY, secretKey: SANDBOX_SECRET_KEY, fetch: sandbox!.fetch },
  );

  const redisUrl = env.REDIS_URL?.trim();
  const redis = redisUrl ? await redisStores(redisUrl) : undefined;
  const payments: PaymentStore = redis?.payments ?? createMemoryPaymentStore();
  const idempotency: IdempotencyStore = redis?.idempotency ?? createMemoryIdempotencyStore();

  /** An endpoint's `onEvent`: into the loop's log, and internal errors to the terminal too. */
  const logged =
    <Event extends { type: string }>(where: string, toLoop: (event: Event) => void) =>
    (event: Event) => {
      toLoop(event);
      if (event.type === 'internal-error') log.warn(`pay-widget demo: ${where} ${JSON.stringify(event)}`);
    };
  const onPaid = (payment: Parameters<typeof loop.onPaid>[0]) => {
    loop.onPaid(payment);
    log.info(`pay-widget demo: paid ${payment.paymentReference} (${payment.currency} ${payment.amount})`);
  };

  // Signs each payment's statusToken; a new one per start unless PAY_STATUS_SECRET is set.
  const statusSecret = env.PAY_STATUS_SECRET?.trim() || crypto.getRandomValues(new Uint8Array(32));

  const session = createSessionHandler({
    gateway,
    payments,
    idempotency,
    statusSecret,
    order: createDemoOrder(() => configuredOrigin ?? listeningOrigin),
    // The sandbox's 504 magic amount answers after 20 s: the handler gives up at 10 s.
    timeoutMs: 10_000,
    onEvent: logged('session', loop.session),
  });

  const webhook = createWebhookHandler({
    gateway,
    payments,
    onPaid,
    onFailed: loop.onFailed,
    onEvent: logged('webhook', loop.webhook),
  });

  const statusHandler = createStatusHandler({
    statusSecret,
    payments,
    gateway,
    onPaid,
    onFailed: loop.onFailed,
    onEvent: logged('status', loop.status),
    onError: (error) => log.warn(`pay-widget demo: status failed: ${String(error)}`),
  });

  /** The status handler, its settled answers written to the loop's log. */
  async function status(request: Request): Promise<Response> {
    const response = await statusHandler(request);
    if (response.ok && request.method === 'GET') {
      const { status: state } = (await response.clone().json()) as { status: string };
      const reference = new URL(request.url).searchParams.get('paymentReference');
      if (reference && state !== 'PENDING') loop.statusAnswered(reference, state);
    }
    return response;
  }

  async function simulate(request: Request): Promise<Response> {
    const refused = sameOriginPost(request);
    if (refused) return refused;
    if (!sandbox) {
      return demoError(409, 'not_available', 'This demo is talking to a real gateway: a payment can only be completed by paying it.');
    }
    let body: { paymentReference?: unknown; status?: unknown };
    try {
      body = ((await request.json()) as typeof body | null) ?? {};
    } catch {
      return demoError(400, 'invalid_json', 'The body is not valid JSON.');
    }
    const fields: Record<string, string> = {};
    const { paymentReference, status: wanted } = body;
    if (typeof paymentReference !== 'string' || !/^[\w.:/-]{1,128}$/.test(paymentReference)) {
      fields.paymentReference = 'Give the paymentReference from pay-initiated.';
    }
    if (wanted !== 'SUCCESS' && wanted !== 'FAILED') fields.status = 'Use SUCCESS or FAILED.';
    if (Object.keys(fields).length > 0) return demoError(400, 'validation', 'Some fields are missing or invalid.', fields);
    const reference = paymentReference as string;
    const outcome = wanted as 'SUCCESS' | 'FAILED';
    if (!sandbox.lookup(reference)) return demoError(404, 'not_found', 'The sandbox has no payment with this reference.');
    loop.customer(reference, outcome);
    sandbox.setStatus(reference, outcome, SIMULATED_MESSAGES[outcome]);
    log.info(`pay-widget demo: simulated ${outcome} for ${reference}`);
    return demoJson(200, { paymentReference: reference, ...sandbox.lookup(reference) });
  }

  async function events(request: Request): Promise<Response> {
    if (request.method !== 'GET') return demoError(405, 'method_not_allowed', 'Use GET.', undefined, { allow: 'GET' });
    const after = Number(new URL(request.url).searchParams.get('after') ?? 0);
    return demoJson(200, { steps: loop.since(Number.isFinite(after) ? after : 0) });
  }

  const mode: DemoMode = real ? 'gateway' : 'sandbox';
  let closed: Promise<void> | undefined;
  return {
    mode,
    gatewayOrigin: real ? safeOrigin(real.baseUrl) : undefined,
    stores: redis ? 'redis' : 'memory',
    routes: {
      [DEMO_PATHS.session]: session,
      [DEMO_PATHS.status]: status,
      [DEMO_PATHS.webhook]: webhook,
      [DEMO_PATHS.simulate]: guarded(simulate, log),
      [DEMO_PATHS.events]: guarded(events, log),
    },
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

/** The demo's own endpoints: same-origin POSTs of JSON only (a cross-site form cannot send JSON without a refused preflight). */
function sameOriginPost(request: Request): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(request.url).origin) {
    return demoError(403, 'origin_not_allowed', 'This endpoint answers its own page only.');
  }
  if (request.method !== 'POST') return demoError(405, 'method_not_allowed', 'Use POST.', undefined, { allow: 'POST' });
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) return demoError(415, 'unsupported_media_type', 'Send the body as application/json.');
  return undefined;
}

/** Nothing thrown becomes a bare 500. */
function guarded(handler: Handler, log: Log): Handler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      log.warn(`pay-widget demo: ${new URL(request.url).pathname} failed: ${String(error)}`);
      return demoError(500, 'internal', 'Something went wrong on our side. Please try again.');
    }
  };
}

function demoJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** The session-endpoint contract's error shape, which the page already reads. */
function demoError(status: number, code: string, message: string, fields?: Record<string, string>, headers?: Record<string, string>): Response {
  return demoJson(status, { status: 'ERROR', error: { code, message, ...(fields ? { fields } : {}) } }, headers);
}

/** PAY_PUBLIC_ORIGIN as an origin (`https://abc.tunnel.example`), or undefined when unset or not an http(s) URL. */
function publicOriginFrom(value: string | undefined, log: Log): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  try {
    const url = new URL(trimmed);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
  } catch {
    // warned below
  }
  log.warn('pay-widget demo: PAY_PUBLIC_ORIGIN is not an http(s) URL; using the address the demo listens on.');
  return undefined;
}

/** Only the origin of the gateway's URL, for the page and the log (never a path or credentials). */
function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid PAY_BASE_URL';
  }
}

/**
 * The demo's order: a book at ₦5,000 by default; the widget's amount is accepted as a hint between
 * ₦100 and ₦1,000,000 (the donation-form pattern), so the panel can try the sandbox's magic amounts.
 *
 * `publicOrigin` is where the demo is reached, from configuration: the callback and redirect URLs
 * are never built from the request (its Host header is whatever the client sent).
 */
export function createDemoOrder(publicOrigin: () => string | undefined): OrderResolver {
  return (request) => {
    if (request.currency && request.currency.toUpperCase() !== DEMO_ORDER.currency) {
      throw new OrderError(`This demo charges in ${DEMO_ORDER.currency} only.`, {
        fields: { currency: `Use ${DEMO_ORDER.currency}.` },
      });
    }
    const amount = Number(request.amount ?? DEMO_ORDER.defaultAmount);
    if (!(amount >= DEMO_ORDER.minAmount && amount <= DEMO_ORDER.maxAmount)) {
      throw new OrderError(`This demo accepts amounts from ₦${DEMO_ORDER.minAmount} to ₦${DEMO_ORDER.maxAmount.toLocaleString('en')}.`, {
        fields: { amount: `Choose an amount between ${DEMO_ORDER.minAmount} and ${DEMO_ORDER.maxAmount}.` },
      });
    }
    const origin = publicOrigin();
    if (!origin) throw new Error('pay-widget demo: the public origin is not known yet (the server is not listening)');
    return {
      amount: amount.toFixed(2),
      currency: DEMO_ORDER.currency,
      country: DEMO_ORDER.country,
      paymentReference: `demo-${crypto.randomUUID()}`,
      callbackUrl: `${origin}/pay/callback`,
      redirectUrl: `${origin}/`,
    };
  };
}

/** The Vite plugin: mounts the demo's endpoints before Vite's own middlewares, and tells the page which mode it is in. */
export function payDemo(options: { env?: Env; backend?: DemoBackend } = {}): Plugin {
  let backend = options.backend;
  return {
    name: 'pay-widget:demo-endpoints',
    apply: 'serve',
    async configureServer(server) {
      const logger = server.config.logger;
      backend ??= await createDemoBackend(options.env, {
        info: (message) => logger.info(message, { timestamp: true }),
        warn: (message) => logger.warn(message, { timestamp: true }),
      });
      const listeners = new Map(
        Object.entries(backend.routes).map(([path, handler]) => [
          path,
          // Not overriding the global Request/Response: Vite and the sandbox share this process.
          getRequestListener(handler, { overrideGlobalObjects: false }),
        ]),
      );
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
        const path = (req.url ?? '/').split('?', 1)[0]!;
        const listener = listeners.get(path);
        if (!listener) return next();
        // Requests only arrive once Vite listens, so its URL is known by now (startDemo also says it).
        const listening = server.resolvedUrls?.local[0];
        if (listening) backend!.listeningAt(listening);
        listener(req, res).catch(next);
      });
    },
    transformIndexHtml() {
      return [
        { tag: 'meta', attrs: { name: 'pay-demo-mode', content: backend?.mode ?? 'sandbox' }, injectTo: 'head' },
        ...(backend?.gatewayOrigin
          ? [{ tag: 'meta', attrs: { name: 'pay-demo-gateway', content: backend.gatewayOrigin }, injectTo: 'head' as const }]
          : []),
        // The sandbox's table, for the page's "Rehearse failures" (the page itself never loads the sandbox).
        {
          tag: 'script',
          attrs: { type: 'application/json', id: 'pay-demo-magic-amounts' },
          children: JSON.stringify(MAGIC_AMOUNTS).replace(/</g, '\\u003c'),
          injectTo: 'head',
        },
      ];
    },
  };
}

export type StartDemoOptions = {
  /** Default 5173; the next free one is used when it is taken. 0: any free port. */
  port?: number;
  /**
   * Default process.env; only PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY, PAY_ACCESS_TOKEN,
   * PAY_PUBLIC_ORIGIN, PAY_STATUS_SECRET and REDIS_URL are read.
   */
  env?: Env;
  /** Vite's log level; default 'info'. */
  logLevel?: LogLevel;
  /** Watch files for hot reload; default true. */
  watch?: boolean;
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
  const backend = await createDemoBackend(options.env ?? process.env, {
    info: (message) => logger.info(message, { timestamp: true }),
    warn: (message) => logger.warn(message, { timestamp: true }),
  });
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
        fs: { allow: [repoRoot] },
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
