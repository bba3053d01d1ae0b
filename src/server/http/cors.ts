// Which browser origins may call an endpoint, and the preflight answer.
import { errorReply, type Reply } from './reply.js';

/** Browser origins allowed to call the endpoint, such as `https://shop.example`, or `'*'` for any. */
export type AllowedOrigins = readonly string[] | '*';

export type CorsOptions = {
  /**
   * Request headers a preflight may ask for besides `Content-Type` and `Idempotency-Key`, for pages
   * whose `initiate` adds its own (`Authorization`, `X-CSRF-Token`). Case does not matter.
   */
  allowedHeaders?: readonly string[];
};

type CorsCheck = { allowed: true; headers: Record<string, string> } | { allowed: false; reply: Reply };

export type CorsPolicy = {
  check(request: Request): CorsCheck;
  preflight(request: Request): Reply;
};

/** What the widget itself sends. */
const DEFAULT_ALLOWED_HEADERS = ['Content-Type', 'Idempotency-Key'];
/** Every answer depends on the request's `Origin`, so shared caches must key on it. */
const VARY_ORIGIN = { vary: 'Origin' };
const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
const HEADER_NAME = /^[!#$%&'*+.^_`|~\w-]+$/;

/**
 * Requests without an `Origin` header (server to server, curl) and same-origin requests always pass;
 * other origins only when listed, and the answer names the listed origin (normalized), never the
 * request's header. Same-origin means the same scheme, host and port as `request.url`, or a browser
 * saying so (`Sec-Fetch-Site: same-origin`, which no page can set): Next.js hands a route handler
 * `http://localhost:<port>` as its URL whatever the address, and behind a TLS-terminating proxy
 * `request.url` says `http:` while the browser's `Origin` says `https:`. For browsers without
 * `Sec-Fetch-Site` (Safari before 16.4) there, list your own origin in `allowedOrigins`.
 *
 * `methods` is the endpoint's `Allow` list, such as `'POST, OPTIONS'`: a preflight asking for
 * another method is answered 405. Only `Content-Type`, `Idempotency-Key` and
 * `options.allowedHeaders` are allowed as request headers.
 */
export function createCorsPolicy(
  allowedOrigins: AllowedOrigins | undefined,
  methods: string,
  options: CorsOptions = {},
): CorsPolicy {
  const anyOrigin = allowedOrigins === '*';
  const listed = new Set(anyOrigin || !allowedOrigins ? [] : allowedOrigins.map(normalizeOrigin));
  const preflightMethods = methods
    .split(',')
    .map((method) => method.trim())
    .filter((method) => method !== '' && method !== 'OPTIONS');
  const allowedHeaders = headerList(options.allowedHeaders ?? []).join(', ');

  function check(request: Request): CorsCheck {
    const origin = request.headers.get('origin');
    if (origin === null || isSameOrigin(origin, request.url) || saysSameOrigin(request))
      return { allowed: true, headers: VARY_ORIGIN };
    if (anyOrigin) return { allowed: true, headers: { 'access-control-allow-origin': '*', ...VARY_ORIGIN } };
    const normalized = normalizeOrigin(origin);
    if (listed.has(normalized))
      return { allowed: true, headers: { 'access-control-allow-origin': normalized, ...VARY_ORIGIN } };
    return {
      allowed: false,
      reply: errorReply('origin_not_allowed', 'This origin is not allowed to call this endpoint.', {
        headers: VARY_ORIGIN,
      }),
    };
  }

  function preflight(request: Request): Reply {
    const result = check(request);
    if (!result.allowed) return withVary(result.reply, PREFLIGHT_VARY);
    const requestedMethod = request.headers.get('access-control-request-method');
    // Not a CORS preflight, only an OPTIONS request: say what the endpoint allows.
    if (requestedMethod === null) return { status: 204, body: '', headers: { ...result.headers, allow: methods } };
    if (!preflightMethods.includes(requestedMethod)) {
      return withVary(
        errorReply('method_not_allowed', `Use ${preflightMethods.join(' or ')}.`, { headers: { allow: methods } }),
        PREFLIGHT_VARY,
      );
    }
    // Requested headers missing from this list make the browser refuse the request, naming them
    // in its console: the allow-list is the answer whatever was asked.
    return {
      status: 204,
      body: '',
      headers: {
        ...result.headers,
        vary: PREFLIGHT_VARY,
        allow: methods,
        'access-control-allow-methods': preflightMethods.join(', '),
        'access-control-allow-headers': allowedHeaders,
        'access-control-max-age': '600',
      },
    };
  }

  return { check, preflight };
}

/** The default headers and the merchant's, each once, checked to be header names. */
function headerList(extra: readonly string[]): string[] {
  const names = new Map(DEFAULT_ALLOWED_HEADERS.map((name) => [name.toLowerCase(), name]));
  for (const raw of extra) {
    const name = typeof raw === 'string' ? raw.trim() : '';
    if (!HEADER_NAME.test(name)) throw new TypeError(`allowedHeaders: ${JSON.stringify(raw)} is not a header name`);
    if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  }
  return [...names.values()];
}

function withVary(reply: Reply, vary: string): Reply {
  return { ...reply, headers: { ...reply.headers, vary } };
}

function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin.toLowerCase();
  }
}

/** Scheme, host and port, as browsers compare origins (default ports and case do not count). */
/**
 * The browser's own word that the page and the endpoint share scheme, host and port. A non-browser
 * caller could send it, as it could send any `Origin`: CORS protects browsers, which never let a
 * page set a `Sec-` header.
 */
function saysSameOrigin(request: Request): boolean {
  return request.headers.get('sec-fetch-site') === 'same-origin';
}

function isSameOrigin(origin: string, requestUrl: string): boolean {
  try {
    const parsed = new URL(origin).origin;
    return parsed !== 'null' && parsed === new URL(requestUrl).origin;
  } catch {
    return false;
  }
}
