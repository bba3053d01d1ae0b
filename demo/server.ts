/**
 * The demo's server side: the session, status and simulate endpoints, mounted on Vite's dev server
 * by a plugin, and `startDemo()`, which `npm start` (scripts/start.mjs) and the e2e test both use.
 *
 *   POST /pay/session   createSessionHandler: the widget's session-url
 *   GET  /pay/status    createStatusHandler: the widget's status-url (?paymentReference=…&statusToken=…,
 *                       the token from the session's order, signed with PAY_STATUS_SECRET or a
 *                       random secret made at start)
 *   POST /pay/simulate  demo only: { paymentReference, status: "SUCCESS" | "FAILED" } marks a
 *                       sandbox payment paid or failed, as if the customer had acted on their phone
 *
 * Backed by the in-process sandbox gateway, so everything works offline with no set-up. When
 * PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_ACCESS_TOKEN are all set, the same endpoints talk to that
 * gateway instead; a payment's status can then not be simulated (nor looked up: the spec has no
 * status endpoint), and the page says so.
 *
 * The order's callbackUrl and redirectUrl are built from PAY_PUBLIC_ORIGIN when it is set (the
 * address the gateway and the customer reach the demo at, e.g. a tunnel), otherwise from the URL
 * the dev server listens on: never from the request's Host header, which the client chooses.
 *
 * Node's request/response are turned into Fetch ones by @hono/node-server's getRequestListener.
 */
import { getRequestListener } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createLogger, createServer, type LogLevel, type Plugin } from 'vite';
import { isJsonContentType } from '../src/http/json-content-type.js';
import { PAYMENT_REFERENCE } from '../src/rules.js';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../src/sandbox/index.js';
import { createCorsPolicy } from '../src/server/cors.js';
import { corsEndpoint } from '../src/server/endpoint.js';
import {
  createSessionHandler,
  createStatusHandler,
  OrderError,
  type OrderResolver,
  type SessionEvent,
} from '../src/server/index.js';
import { errorReply, jsonReply, type Reply } from '../src/server/reply.js';

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
  simulate: '/pay/simulate',
} as const;

const GATEWAY_ENV = ['PAY_BASE_URL', 'PAY_PUBLIC_KEY', 'PAY_ACCESS_TOKEN'] as const;
const SIMULATED_MESSAGES = {
  SUCCESS: 'Simulated by the demo: the customer approved the payment.',
  FAILED: "Simulated by the demo: the customer's bank declined the payment.",
} as const;

export type DemoMode = 'sandbox' | 'gateway';

export type DemoBackend = {
  mode: DemoMode;
  /** The real gateway's origin in `gateway` mode (never the keys). */
  gatewayOrigin: string | undefined;
  routes: Record<string, Handler>;
  /** One line for the terminal. */
  describe(): string;
  /**
   * Tells the backend the URL the server listens on, the origin of callbackUrl and redirectUrl
   * unless PAY_PUBLIC_ORIGIN is set. The first call counts.
   */
  listeningAt(url: string): void;
};

/** Reads the PAY_* variables: all three set → the real gateway, otherwise the in-process sandbox. */
export function createDemoBackend(env: Env = process.env, log: Log = console): DemoBackend {
  const set = GATEWAY_ENV.filter((name) => env[name]?.trim());
  if (set.length > 0 && set.length < GATEWAY_ENV.length) {
    const missing = GATEWAY_ENV.filter((name) => !set.includes(name));
    log.warn(`pay-widget demo: ${set.join(', ')} set but ${missing.join(', ')} not; using the offline sandbox.`);
  }
  const real = set.length === GATEWAY_ENV.length;
  const configuredOrigin = publicOriginFrom(env.PAY_PUBLIC_ORIGIN, log);
  let listeningOrigin: string | undefined;

  const sandbox = real ? undefined : createSandboxGateway({ merchantName: 'Ada Books', latencyMs: 250, slowMs: 20_000 });
  const baseUrl = real ? env.PAY_BASE_URL!.trim() : 'https://sandbox.pay-widget.invalid';
  const onEvent = (event: SessionEvent) => {
    const line = `pay-widget demo: session ${JSON.stringify(event)}`;
    if (event.type === 'internal-error') log.warn(line);
    else log.info(line);
  };

  // Signs each payment's statusToken; a new one per start unless PAY_STATUS_SECRET is set.
  const statusSecret = env.PAY_STATUS_SECRET?.trim() || crypto.getRandomValues(new Uint8Array(32));

  const session = createSessionHandler({
    statusSecret,
    baseUrl,
    publicKey: real ? env.PAY_PUBLIC_KEY!.trim() : SANDBOX_PUBLIC_KEY,
    accessToken: real ? env.PAY_ACCESS_TOKEN!.trim() : SANDBOX_ACCESS_TOKEN,
    order: createDemoOrder(() => configuredOrigin ?? listeningOrigin),
    // The sandbox's 504 magic amount answers after 20 s: the handler gives up at 10 s.
    timeoutMs: real ? 15_000 : 10_000,
    ...(sandbox ? { fetch: sandbox.fetch } : {}),
    onEvent,
  });

  const status = createStatusHandler({
    statusSecret,
    lookup: (paymentReference) => sandbox?.lookup(paymentReference),
    onError: (error) => log.warn(`pay-widget demo: status lookup failed: ${String(error)}`),
  });

  async function simulate(request: Request): Promise<Reply> {
    if (request.method !== 'POST') return errorReply('method_not_allowed', 'Use POST.', undefined, { allow: 'POST' });
    if (!sandbox) {
      const message = 'This demo is talking to a real gateway: a payment can only be completed by paying it.';
      return jsonReply(409, { status: 'ERROR', error: { code: 'not_available', message } });
    }
    // JSON only: a cross-site form cannot send it without a CORS preflight, which is refused.
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return errorReply('unsupported_media_type', 'Send the body as application/json.');
    }
    let body: { paymentReference?: unknown; status?: unknown };
    try {
      body = (await request.json()) ?? {};
    } catch {
      return errorReply('invalid_json', 'The body is not valid JSON.');
    }
    const fields: Record<string, string> = {};
    const { paymentReference, status: wanted } = body;
    if (typeof paymentReference !== 'string' || !PAYMENT_REFERENCE.test(paymentReference)) {
      fields.paymentReference = 'Give the paymentReference from pay-initiated.';
    }
    if (wanted !== 'SUCCESS' && wanted !== 'FAILED') fields.status = 'Use SUCCESS or FAILED.';
    if (Object.keys(fields).length > 0) return errorReply('validation', 'Some fields are missing or invalid.', fields);
    const reference = paymentReference as string;
    const outcome = wanted as 'SUCCESS' | 'FAILED';
    if (!sandbox.setStatus(reference, outcome, SIMULATED_MESSAGES[outcome])) {
      return errorReply('not_found', 'The sandbox has no payment with this reference.');
    }
    log.info(`pay-widget demo: simulated ${outcome} for ${reference}`);
    return jsonReply(200, { paymentReference: reference, ...sandbox.lookup(reference) });
  }

  // The server's own shell: same-origin only, preflights refused, nothing thrown becomes a bare 500.
  const simulateEndpoint = corsEndpoint(createCorsPolicy(undefined, 'POST'), simulate, {
    crashed: (error) => {
      log.warn(`pay-widget demo: simulate failed: ${String(error)}`);
      return errorReply('internal', 'Something went wrong on our side. Please try again.');
    },
  });

  return {
    mode: real ? 'gateway' : 'sandbox',
    gatewayOrigin: real ? safeOrigin(baseUrl) : undefined,
    routes: { [DEMO_PATHS.session]: session, [DEMO_PATHS.status]: status, [DEMO_PATHS.simulate]: simulateEndpoint },
    describe: () =>
      real
        ? `real gateway at ${safeOrigin(baseUrl)} (PAY_* variables); payment status cannot be simulated`
        : 'offline sandbox gateway; "simulate" completes payments',
    listeningAt(url) {
      listeningOrigin ??= new URL(url).origin;
    },
  };
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
    configureServer(server) {
      const logger = server.config.logger;
      backend ??= createDemoBackend(options.env, {
        info: (message) => logger.info(message, { timestamp: true }),
        warn: (message) => logger.warn(message, { timestamp: true }),
      });
      const { routes } = backend;
      const listeners = new Map(
        Object.entries(routes).map(([path, handler]) => [
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
      ];
    },
  };
}

export type StartDemoOptions = {
  /** Default 5173; the next free one is used when it is taken. 0: any free port. */
  port?: number;
  /** Default process.env; only PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_ACCESS_TOKEN, PAY_PUBLIC_ORIGIN and PAY_STATUS_SECRET are read. */
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
  const backend = createDemoBackend(options.env ?? process.env, {
    info: (message) => logger.info(message, { timestamp: true }),
    warn: (message) => logger.warn(message, { timestamp: true }),
  });
  const server = await createServer({
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
  try {
    await server.listen();
  } catch (error) {
    await server.close();
    throw error;
  }
  const url = server.resolvedUrls?.local[0];
  if (!url) {
    await server.close();
    throw new Error('pay-widget demo: Vite started but reported no local URL');
  }
  backend.listeningAt(url);
  return {
    url,
    mode: backend.mode,
    describe: () => backend.describe(),
    printUrls: () => server.printUrls(),
    bindShortcuts: () => server.bindCLIShortcuts({ print: true }),
    close: () => server.close(),
  };
}
