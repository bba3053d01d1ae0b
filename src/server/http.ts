/**
 * The HTTP plumbing every endpoint shares, in the order a request meets it: the error codes and
 * JSON replies, the endpoint shell (preflight, origin check, crash guard), the CORS policy, body
 * reading, the one deadline helper, the redaction of secrets, and the guard around logging hooks.
 */
import type { ErrorBody } from '../schemas.js';

/**
 * Every error the session and status endpoints answer with, and its HTTP status. The body is always
 * the session-endpoint contract's `{ status: "ERROR", error: { code, message, fields? } }`.
 */
export const ERROR_STATUS = {
  method_not_allowed: 405,
  unsupported_media_type: 415,
  payload_too_large: 413,
  invalid_json: 400,
  validation: 400,
  invalid_idempotency_key: 400,
  missing_idempotency_key: 400,
  origin_not_allowed: 403,
  not_found: 404,
  request_timeout: 408,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  order_refused: 422,
  duplicate_reference: 422,
  rate_limited: 429,
  payment_declined: 402,
  gateway_error: 502,
  gateway_unreachable: 502,
  invalid_gateway_response: 502,
  gateway_timeout: 504,
  internal: 500,
  config: 500,
  server_busy: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Field name → what is wrong with it, in words a customer can act on. */
export type FieldErrors = Record<string, string>;

/**
 * An answer before it becomes a `Response`: plain data, so the idempotency store can keep it and
 * the CORS headers are added in one place.
 */
export type Reply = { status: number; body: string; headers?: Record<string, string> };

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(value), headers };
}

export function errorReply(
  code: ErrorCode,
  message: string,
  fields?: FieldErrors,
  headers?: Record<string, string>,
): Reply {
  const body: ErrorBody = { status: 'ERROR', error: fields ? { code, message, fields } : { code, message } };
  return jsonReply(ERROR_STATUS[code], body, headers);
}

export function toResponse(reply: Reply, extraHeaders: Record<string, string>): Response {
  // 204 and 304 must not carry a body, not even an empty one.
  return new Response(reply.status === 204 || reply.status === 304 ? null : reply.body, {
    status: reply.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...reply.headers,
      ...extraHeaders,
    },
  });
}

export type EndpointHooks = {
  /** Turns anything thrown into a JSON reply: no bare 500 leaves an endpoint. */
  crashed(error: unknown): Reply;
  refused?(reply: Reply): void;
};

/** The shell every endpoint shares: preflight, origin check, crash guard, CORS headers on the answer. */
export function corsEndpoint(
  cors: CorsPolicy,
  handle: (request: Request, env: unknown) => Promise<Reply>,
  hooks: EndpointHooks,
): (request: Request, env?: unknown) => Promise<Response> {
  return async (request, env) => {
    let corsHeaders: Record<string, string> = {};
    let reply: Reply;
    try {
      if (request.method === 'OPTIONS') {
        reply = cors.preflight(request);
      } else {
        const origin = cors.check(request);
        if (origin.allowed) {
          corsHeaders = origin.headers;
          reply = await handle(request, env);
        } else {
          reply = origin.reply;
          hooks.refused?.(reply);
        }
      }
    } catch (error) {
      reply = hooks.crashed(error);
    }
    const response = toResponse(reply, corsHeaders);
    return request.method === 'HEAD' ? new Response(null, response) : response;
  };
}

/** Browser origins allowed to call the endpoint, such as `https://shop.example`, or `'*'` for any. */
export type AllowedOrigins = readonly string[] | '*';

export type CorsOptions = {
  /**
   * Request headers a preflight may ask for besides `Content-Type` and `Idempotency-Key`, for pages
   * whose `initiate` adds its own (`Authorization`, `X-CSRF-Token`). Case does not matter.
   */
  allowedHeaders?: readonly string[];
};

export type CorsCheck = { allowed: true; headers: Record<string, string> } | { allowed: false; reply: Reply };

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
 * other origins only when listed. Same-origin compares hosts, not schemes, because behind a
 * TLS-terminating proxy `request.url` says `http:` while the browser's `Origin` says `https:`.
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
    if (origin === null || isSameOrigin(origin, request.url)) return { allowed: true, headers: VARY_ORIGIN };
    if (anyOrigin || listed.has(normalizeOrigin(origin))) {
      return { allowed: true, headers: { 'access-control-allow-origin': anyOrigin ? '*' : origin, ...VARY_ORIGIN } };
    }
    return {
      allowed: false,
      reply: errorReply('origin_not_allowed', 'This origin is not allowed to call this endpoint.', undefined, VARY_ORIGIN),
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
        errorReply('method_not_allowed', `Use ${preflightMethods.join(' or ')}.`, undefined, { allow: methods }),
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

function isSameOrigin(origin: string, requestUrl: string): boolean {
  try {
    return new URL(origin).host === new URL(requestUrl).host;
  } catch {
    return false;
  }
}

export type BodyResult =
  | { ok: true; text: string }
  | { ok: false; reason: 'too-large' | 'unreadable' | 'timeout' };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as UTF-8 text, counting bytes as they arrive: `Content-Length` may be absent
 * (chunked uploads) or lie, so it only serves to refuse early. A body still arriving after
 * `timeoutMs` (when given) is abandoned: a client trickling it byte by byte cannot hold the handler.
 */
export async function readBodyText(request: Request, maxBytes: number, timeoutMs?: number): Promise<BodyResult> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) return { ok: false, reason: 'too-large' };
  if (!request.body) return { ok: true, text: '' };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timedOut = false;
  // Cancelling ends the pending read (as if the body had ended) and stops the stream.
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          void reader.cancel().catch(() => {});
        }, timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) return { ok: false, reason: 'timeout' };
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => {});
        return { ok: false, reason: 'too-large' };
      }
      chunks.push(value);
    }
    return { ok: true, text: utf8.decode(chunks.length === 1 ? chunks[0] : concat(chunks, total)) };
  } catch {
    return { ok: false, reason: timedOut ? 'timeout' : 'unreadable' };
  } finally {
    clearTimeout(timer);
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

/** The one JSON reader, for request bodies and gateway answers: the value, or undefined for text that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A one-shot abort flag with listeners, for a deadline (see {@link withDeadline}). `signal` turns it
 * into an `AbortSignal` for `fetch` and the merchant's own calls, made only when one is asked for.
 */
export class AbortFlag {
  #aborted = false;
  #listeners: (() => void)[] | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Aborts with the flag; its reason is a `TimeoutError`, as for `AbortSignal.timeout`. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = (this.#controller = new AbortController());
      this.onAbort(() => controller.abort(new DOMException('The deadline passed.', 'TimeoutError')));
    }
    return this.#controller.signal;
  }

  /** Calls `listener` once when aborted (at once if already); returns a function that unsubscribes it. */
  onAbort(listener: () => void): () => void {
    if (this.#aborted) {
      listener();
      return () => {};
    }
    (this.#listeners ??= []).push(listener);
    return () => {
      const index = this.#listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.#listeners!.splice(index, 1);
    };
  }

  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }
}

/** Resolves after `ms`; resolves early when `signal` aborts, so a waiting loop can notice. */
export function sleep(ms: number, signal?: AbortFlag): Promise<void> {
  return new Promise((resolve) => {
    let unsubscribe: (() => void) | undefined;
    const done = () => {
      clearTimeout(timer);
      unsubscribe?.();
      resolve();
    };
    const timer = setTimeout(done, ms);
    unsubscribe = signal?.onAbort(done);
  });
}

/**
 * Runs `work` with a flag that aborts after `ms`. If `work` has not settled by then, the answer is
 * `onTimeout()` (or what it throws), given at that moment; `work` is left to notice the flag and
 * stop. The one time-out of every endpoint: the attempt, the status lookup, the webhook's query.
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortFlag) => Promise<T>,
  onTimeout: () => T,
): Promise<T> {
  const flag = new AbortFlag();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      flag.abort();
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  try {
    return await Promise.race([work(flag), expired]);
  } finally {
    clearTimeout(timer);
  }
}

const REDACTED = '[redacted]';

/** How many tokens from a rotating token source are remembered, newest kept. */
export const MAX_REMEMBERED_TOKENS = 16;

/**
 * `Bearer <token>`, also URL-encoded (`Bearer%20…`, `Bearer+…`) and with JSON's `\/`: catches a
 * token the redactor never saw, or one it has since forgotten.
 */
const BEARER = /(Bearer(?:\s|%20|\+)+)(?:[\w.~+/=-]|\\\/|%[0-9A-Fa-f]{2})+/gi;

/**
 * Removes secrets from text that leaves the handler (gateway messages and envelopes, error names
 * for `onEvent`): each secret as written, JSON-escaped (with and without `\/`), URL-encoded, and
 * whatever follows `Bearer `. The public key and a fixed token are always known; tokens from a
 * rotating source are added as they are used, the last {@link MAX_REMEMBERED_TOKENS} kept.
 */
export type Redactor = {
  /** Remembers a token from a rotating source. */
  add(token: string): void;
  /** `value` with every known secret, and each of `extra` (this request's customer details), replaced. */
  text(value: string, extra?: readonly string[]): string;
  /** `text` with a fixed `extra`, whose encodings are worked out once, on first use. */
  withExtra(extra: readonly string[]): (value: string) => string;
};

export function createRedactor(permanent: readonly string[]): Redactor {
  const known = new Set(permanent.filter((secret) => secret.length > 0));
  const fixed = [...known].map(encodings);
  // A Map keeps insertion order: the first key is the token used longest ago.
  const tokens = new Map<string, string[]>();

  function withExtra(extra: readonly string[]): (value: string) => string {
    // Worked out on first use, after the request's deadline is set: most requests redact nothing.
    let extraForms: string[][] | undefined;
    return (value) => {
      extraForms ??= extra.filter((secret) => secret.length > 0).map(encodings);
      let result = redactKnown(value);
      for (const forms of extraForms) result = replaceAll(result, forms);
      return result;
    };
  }

  return {
    add(token) {
      if (token.length === 0 || known.has(token)) return;
      const forms = tokens.get(token);
      tokens.delete(token);
      tokens.set(token, forms ?? encodings(token));
      if (forms) return;
      if (tokens.size > MAX_REMEMBERED_TOKENS) tokens.delete(tokens.keys().next().value!);
    },
    text: (value, extra = []) => (extra.length ? withExtra(extra)(value) : redactKnown(value)),
    withExtra,
  };

  /** The Bearer pattern, then each permanent secret, then each remembered token, in that order. */
  function redactKnown(value: string): string {
    let result = value.replace(BEARER, `$1${REDACTED}`);
    for (const forms of fixed) result = replaceAll(result, forms);
    for (const forms of tokens.values()) result = replaceAll(result, forms);
    return result;
  }
}

/** The ways a secret gets written into JSON, URLs and form bodies, longest first. */
function encodings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const uri = encodeURIComponent(secret);
  const forms = [
    secret,
    json,
    json.replaceAll('/', '\\/'),
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    new URLSearchParams({ s: secret }).toString().slice(2),
  ];
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

function replaceAll(text: string, forms: readonly string[]): string {
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
  return result;
}

/** Only the error's class, for `onEvent`: a message may quote anything. */
export function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/** A logging hook must never break a payment or a settlement: its throws and rejections are swallowed. */
export function createEmitter<Event>(
  listener: ((event: Event) => void | Promise<void>) | undefined,
): (event: Event) => void {
  if (!listener) return () => {};
  return (event) => {
    try {
      const result = listener(event);
      if (result && typeof result.then === 'function') result.then(undefined, () => {});
    } catch {
      // ignored on purpose, see above
    }
  };
}
