// Which gateway this server pays through, decided once from its environment: the real one when its
// three variables are set; the in-process sandbox (offline, no money) only when asked for, with
// `npm run sandbox` or PAY_SANDBOX=1; anything in between is a mistake, named in one line.
const GATEWAY_VARIABLES = ['PAY_BASE_URL', 'PAY_PUBLIC_KEY', 'PAY_SECRET_KEY'];

/** `{ mode: 'gateway' | 'sandbox' }`, or `{ error }`: the one line that says why neither can run. */
export function gatewayMode(env) {
  const missing = GATEWAY_VARIABLES.filter((name) => !env[name]);
  const sandboxAsked = env.PAY_SANDBOX === '1' || env.npm_lifecycle_event === 'sandbox';
  if (missing.length === 0 && sandboxAsked) return { error: 'PAY_SANDBOX=1 (or npm run sandbox) with the gateway variables set: choose one, unset PAY_SANDBOX or the three PAY_ variables' };
  if (missing.length === 0) return { mode: 'gateway' };
  if (missing.length < GATEWAY_VARIABLES.length) return { error: `${missing.join(' and ')} not set: the real gateway needs ${GATEWAY_VARIABLES.join(', ')} (or unset them all and run npm run sandbox)` };
  if (sandboxAsked) return { mode: 'sandbox' };
  return { error: `no gateway: set ${GATEWAY_VARIABLES.join(', ')} for the real one, or run npm run sandbox (PAY_SANDBOX=1) for the offline sandbox` };
}

/** This machine: 127.0.0.0/8 or ::1, also as an IPv4-mapped IPv6 address. */
export const isLoopback = (address = '') => /^(::ffff:)?127\./.test(address) || address === '::1';
