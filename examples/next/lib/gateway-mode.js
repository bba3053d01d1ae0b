// Which gateway this server pays through, decided once from its environment: the real one when its
// three variables are set; the in-process sandbox (offline, no money) only when asked for, with
// `npm run sandbox` or PAY_SANDBOX=1; anything in between is a mistake, named in one line.
const GATEWAY_VARIABLES = ['PAY_BASE_URL', 'PAY_PUBLIC_KEY', 'PAY_SECRET_KEY'];

/** `{ mode: 'gateway' | 'sandbox' }`, or `{ error }`: the one line that says why neither can run. */
export function gatewayMode(env) {
  const missing = GATEWAY_VARIABLES.filter((name) => !env[name]);
  const sandboxAsked = env.PAY_SANDBOX === '1' || env.npm_lifecycle_event === 'sandbox';
  if (missing.length === 0 && sandboxAsked)
    return {
      error:
        'PAY_SANDBOX=1 (or npm run sandbox) with the gateway variables set: choose one, unset PAY_SANDBOX or the three PAY_ variables',
    };
  if (missing.length === 0) return { mode: 'gateway' };
  if (missing.length < GATEWAY_VARIABLES.length)
    return {
      error: `${missing.join(' and ')} not set: the real gateway needs ${GATEWAY_VARIABLES.join(', ')} (or unset them all and run npm run sandbox)`,
    };
  if (sandboxAsked) return { mode: 'sandbox' };
  return {
    error: `no gateway: set ${GATEWAY_VARIABLES.join(', ')} for the real one, or run npm run sandbox (PAY_SANDBOX=1) for the offline sandbox`,
  };
}

/** This machine: 127.0.0.0/8 or ::1, also as an IPv4-mapped IPv6 address. */
const isLoopback = (address = '') => /^(::ffff:)?127\./.test(address) || address === '::1';
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;
/** What a proxy, a tunnel or a platform adds; `next start` itself adds X-Forwarded-For (one address) and its -Host, -Port and -Proto. */
const PROXY_HEADERS = [
  'forwarded',
  'x-real-ip',
  'x-client-ip',
  'cf-connecting-ip',
  'true-client-ip',
  'fly-client-ip',
  'x-vercel-forwarded-for',
  'ngrok-trace-id',
  'tailscale-funnel-request',
];

/**
 * Whether a route handler's request is plainly from the person at this machine. A route handler
 * gets no socket, only what `next start` says of it in X-Forwarded-For, which a client can write
 * too: so the sandbox is refused on any interface but 127.0.0.1 (instrumentation.js), and here a
 * request is this machine's only with one loopback address in that header, a loopback Host, and no
 * header that any proxy or tunnel in front adds.
 */
export function fromThisMachine(request) {
  const forwardedFor = (request.headers.get('x-forwarded-for') ?? '').split(',').map((part) => part.trim());
  if (forwardedFor.length !== 1 || !isLoopback(forwardedFor[0])) return false;
  if (
    !LOOPBACK_HOST.test(request.headers.get('host') ?? '') ||
    !LOOPBACK_HOST.test(request.headers.get('x-forwarded-host') ?? request.headers.get('host'))
  )
    return false;
  return !PROXY_HEADERS.some((name) => request.headers.has(name));
}

/** The sandbox on an interface others reach: refused at start, with the reason (instrumentation.js). */
export function sandboxExposed(env) {
  const host = env.HOST ?? '127.0.0.1'; // as package.json's start script reads it
  return gatewayMode(env).mode === 'sandbox' && !LOOPBACK_HOST.test(host)
    ? `the sandbox answers "the customer paid" to this machine only: start it on 127.0.0.1 (HOST=${host} was given)`
    : undefined;
}
