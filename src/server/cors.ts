import { errorReply, type Reply } from './reply.js';

/** Browser origins allowed to call the endpoint, such as `https://shop.example`, or `'*'` for any. */
export type AllowedOrigins = readonly string[] | '*';

export type CorsCheck = { allowed: true; headers: Record<string, string> } | { allowed: false; reply: Reply };

export type CorsPolicy = {
  check(request: Request): CorsCheck;
  preflight(request: Request): Reply;
};

const NO_HEADERS: Record<string, string> = {};

/**
 * Requests without an `Origin` header (server to server, curl) and same-origin requests always pass;
 * other origins only when listed. Same-origin compares hosts, not schemes, because behind a
 * TLS-terminating proxy `request.url` says `http:` while the browser's `Origin` says `https:`.
 */
export function createCorsPolicy(allowedOrigins: AllowedOrigins | undefined, methods: string): CorsPolicy {
  const anyOrigin = allowedOrigins === '*';
  const listed = new Set(anyOrigin || !allowedOrigins ? [] : allowedOrigins.map(normalizeOrigin));

  function check(request: Request): CorsCheck {
    const origin = request.headers.get('origin');
    if (origin === null || isSameOrigin(origin, request.url)) return { allowed: true, headers: NO_HEADERS };
    if (anyOrigin || listed.has(normalizeOrigin(origin))) {
      return { allowed: true, headers: { 'access-control-allow-origin': anyOrigin ? '*' : origin, vary: 'Origin' } };
    }
    return {
      allowed: false,
      reply: errorReply('origin_not_allowed', 'This origin is not allowed to call this endpoint.'),
    };
  }

  function preflight(request: Request): Reply {
    const result = check(request);
    if (!result.allowed) return result.reply;
    return {
      status: 204,
      body: '',
      headers: {
        ...result.headers,
        allow: methods,
        'access-control-allow-methods': methods,
        'access-control-allow-headers': 'Content-Type, Idempotency-Key',
        'access-control-max-age': '600',
      },
    };
  }

  return { check, preflight };
}

function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin.toLowerCase();
  }
}

function isSameOrigin(origin: string, requestUrl: string): boolean {
  try {
    return new URL(origin).host === new URL(requestUrl).host;
  } catch {
    return false;
  }
}
