// The demo's settings from its environment: PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY (or
// PAY_ACCESS_TOKEN) for a real gateway, PAY_PUBLIC_ORIGIN for the address it is reached at,
// PAY_STATUS_SECRET for the statusTokens' key, REDIS_URL for the stores,
// PAY_RECONCILE_INTERVAL_MS for the reconciler's sweeps, and PAY_TRANSFER_VALIDITY_MS for how long a
// transfer's account is shown as valid (set it to a minute to watch the countdown run out).

export type Env = Record<string, string | undefined>;
export type Log = { info(message: string): void; warn(message: string): void };

/** The real gateway's settings, for `createGateway`. */
type GatewaySettings = { baseUrl: string; publicKey: string } & ({ secretKey: string } | { accessToken: string });

type DemoConfig = {
  /** Set when PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY (or PAY_ACCESS_TOKEN) all are; otherwise the sandbox. */
  gateway: GatewaySettings | undefined;
  /** PAY_PUBLIC_ORIGIN as an origin, when it is a valid http(s) URL. */
  publicOrigin: string | undefined;
  redisUrl: string | undefined;
  /** Signs each payment's statusToken; a new one per start unless PAY_STATUS_SECRET is set. */
  statusSecret: string | Uint8Array;
  /** PAY_RECONCILE_INTERVAL_MS: how long the reconciler waits after a sweep before the next. */
  reconcileIntervalMs: number;
  /** PAY_TRANSFER_VALIDITY_MS: the session handler's transferValidityMs; undefined, its default (30 min). */
  transferValidityMs: number | undefined;
};

/** Often enough to watch the reconciler close the loop, seldom enough to leave the log readable. */
const DEFAULT_RECONCILE_INTERVAL_MS = 15_000;

export function readDemoConfig(env: Env, log: Log): DemoConfig {
  return {
    gateway: gatewaySettings(env, log),
    publicOrigin: publicOriginFrom(env.PAY_PUBLIC_ORIGIN, log),
    redisUrl: env.REDIS_URL?.trim() || undefined,
    statusSecret: env.PAY_STATUS_SECRET?.trim() || crypto.getRandomValues(new Uint8Array(32)),
    reconcileIntervalMs:
      milliseconds(env, 'PAY_RECONCILE_INTERVAL_MS', log, `sweeping every ${DEFAULT_RECONCILE_INTERVAL_MS / 1000} s`) ??
      DEFAULT_RECONCILE_INTERVAL_MS,
    transferValidityMs: milliseconds(
      env,
      'PAY_TRANSFER_VALIDITY_MS',
      log,
      'a transfer stays valid for the default 30 minutes',
    ),
  };
}

/** The variable `name` as a positive whole number of milliseconds; undefined (with a warning saying `otherwise` when it was set) if not. */
function milliseconds(env: Env, name: string, log: Log, otherwise: string): number | undefined {
  const trimmed = env[name]?.trim();
  if (!trimmed) return undefined;
  const ms = Number(trimmed);
  if (Number.isInteger(ms) && ms > 0) return ms;
  log.warn(`pay-widget demo: ${name} is not a positive whole number of milliseconds; ${otherwise}.`);
  return undefined;
}

function gatewaySettings(env: Env, log: Log): GatewaySettings | undefined {
  const value = (name: string) => env[name]?.trim() || undefined;
  const baseUrl = value('PAY_BASE_URL');
  const publicKey = value('PAY_PUBLIC_KEY');
  const secretKey = value('PAY_SECRET_KEY');
  const accessToken = value('PAY_ACCESS_TOKEN');
  const given = {
    PAY_BASE_URL: baseUrl,
    PAY_PUBLIC_KEY: publicKey,
    'PAY_SECRET_KEY (or PAY_ACCESS_TOKEN)': secretKey ?? accessToken,
  };
  const missing = Object.entries(given)
    .filter(([, set]) => !set)
    .map(([name]) => name);
  if (missing.length === 0)
    return { baseUrl: baseUrl!, publicKey: publicKey!, ...(secretKey ? { secretKey } : { accessToken: accessToken! }) };
  if (missing.length < 3) log.warn(`pay-widget demo: ${missing.join(', ')} not set; using the offline sandbox.`);
  return undefined;
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
export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid PAY_BASE_URL';
  }
}
