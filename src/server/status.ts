/**
 * The status endpoint: the status token check, then the ledger (re-querying a stale PENDING and
 * settling it) or the merchant's own lookup; then the ledger reader and the signed status tokens.
 */
import { PAYMENT_REFERENCE } from '../rules.js';
import { statusResponseSchema, type StatusResponse } from '../schemas.js';
import type { Gateway, QueryOutcome } from './gateway.js';
import { createCorsPolicy, type AllowedOrigins } from './http/cors.js';
import { withDeadline } from './http/deadline.js';
import { createEmitter, errorName } from './http/emitter.js';
import { corsEndpoint } from './http/endpoint.js';
import { errorReply, jsonReply, type Reply } from './http/reply.js';
import { settlePayment, type PaymentHook, type SettleEvent } from './settle.js';
import { PAYMENT_STORE_METHODS, type Payment, type PaymentStore } from './stores.js';
import { assertStore } from './options.js';

export type StatusLookupContext = {
  request: Request;
  /** Aborted when the handler stops waiting (after `timeoutMs`): pass it on to the database or API call. */
  signal: AbortSignal;
};

export type StatusLookup = (
  paymentReference: string,
  context: StatusLookupContext,
) => StatusResponse | undefined | null | Promise<StatusResponse | undefined | null>;

export type StatusHandlerOptions = {
  /**
   * The session handler's `statusSecret`: only a poll carrying the `statusToken` it signed for the
   * reference is looked up. At least 32 bytes.
   */
  statusSecret: StatusSecret;
  /**
   * The ledger the session handler records payments in: the answer is its entry's state, amount and
   * currency. Give exactly one of `payments` and `lookup`.
   */
  payments?: PaymentStore;
  /** With `payments`: the `createGateway(…)` object, to re-query a payment still PENDING. */
  gateway?: Pick<Gateway, 'query'>;
  /**
   * With `payments`: the webhook handler's `onPaid`. A re-query that finds the payment settled moves
   * the ledger with the webhook's one transition, and whichever path wins runs it, once per
   * reference. Without it this handler never settles a payment, so it never re-queries.
   */
  onPaid?: PaymentHook;
  /** With `payments`: the webhook handler's `onFailed`, run the same way. */
  onFailed?: PaymentHook;
  /** With `payments`: every re-query and settlement, for logs; never a token, key or customer detail. */
  onEvent?: (event: StatusEvent) => void | Promise<void>;
  /**
   * With `payments`: a PENDING payment the gateway was not asked about for this long is re-queried
   * by the next poll, one poll per interval however many tabs (and instances) poll; default 5 000 ms.
   */
  recheckAfterMs?: number;
  /**
   * The escape hatch for merchants with their own records, instead of `payments`: the payment's
   * status, or undefined/null when the reference is unknown (answered 404).
   */
  lookup?: StatusLookup;
  /** As for the session handler; default same origin only. */
  allowedOrigins?: AllowedOrigins;
  /** Request headers a cross-origin page may send besides the widget's own (see the session handler's). */
  allowedHeaders?: readonly string[];
  /** Called with what went wrong when `lookup` (or the ledger) throws, answers something invalid, or times out. */
  onError?: (error: unknown) => void;
  /**
   * How long to wait for `lookup` (or the ledger) before answering 504 `gateway_timeout`; default
   * 5 000 ms. A re-query still running at half of it leaves the answer PENDING and goes on.
   */
  timeoutMs?: number;
};

const METHODS = 'GET, HEAD, OPTIONS';
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_RECHECK_AFTER_MS = 5_000;

class LookupTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Said alike for an unknown reference and a missing, forged or expired token: references cannot be probed. */
const NOT_FOUND = 'No payment has this reference.';

/**
 * The widget's `status-url`: `GET ?paymentReference=…&statusToken=…` → `{ status, amount, currency }`
 * from the ledger (`{ status, message? }` from a `lookup`). Checks the token before anything is read.
 */
export function createStatusHandler(options: StatusHandlerOptions): (request: Request) => Promise<Response> {
  const tokens = createStatusTokens(options?.statusSecret as StatusSecret, { who: 'createStatusHandler' });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new TypeError('createStatusHandler: timeoutMs must be a positive number');
  const lookup = options.payments !== undefined ? ledgerLookup(options, timeoutMs) : options.lookup;
  if (options.payments !== undefined && options.lookup !== undefined) {
    throw new TypeError('createStatusHandler: give exactly one of payments and lookup, not both');
  }
  if (typeof lookup !== 'function') throw new TypeError('createStatusHandler: give exactly one of payments (the ledger) and lookup');
  const cors = createCorsPolicy(options.allowedOrigins, METHODS, { allowedHeaders: options.allowedHeaders });
  /** A logging hook: it must not change the answer. */
  const report = createEmitter(options.onError);

  async function handle(request: Request): Promise<Reply> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorReply('method_not_allowed', 'Use GET.', { headers: { allow: METHODS } });
    }
    const query = new URL(request.url).searchParams;
    const paymentReference = query.get('paymentReference');
    if (!paymentReference || !PAYMENT_REFERENCE.test(paymentReference)) {
      return errorReply('validation', 'The paymentReference query parameter is missing or invalid.', {
        fields: { paymentReference: paymentReference ? 'Use up to 128 letters, digits, or . _ : / -.' : 'This field is required.' },
      });
    }
    if (!(await tokens.verify(paymentReference, query.get('statusToken')))) return errorReply('not_found', NOT_FOUND);
    let found: unknown;
    try {
      found = await lookupWithin(paymentReference, request);
    } catch (error) {
      if (error instanceof LookupTimeoutError) {
        report(error);
        return errorReply('gateway_timeout', 'The payment status took too long to read. Please try again.');
      }
      return failed(error);
    }
    if (found === undefined || found === null) return errorReply('not_found', NOT_FOUND);
    const parsed = statusResponseSchema.safeParse(found);
    if (!parsed.success) return failed(new TypeError('lookup returned an invalid status'));
    const { status, message, amount, currency } = parsed.data;
    return jsonReply(200, { status, ...(amount === undefined ? {} : { amount }), ...(currency === undefined ? {} : { currency }), ...(message == null ? {} : { message }) });
  }

  /** `lookup`, abandoned after `timeoutMs`: a hung database must not hold every poll open. */
  function lookupWithin(paymentReference: string, request: Request): Promise<unknown> {
    return withDeadline(
      timeoutMs,
      async (flag) => lookup!(paymentReference, { request, signal: flag.signal }),
      () => {
        throw new LookupTimeoutError(`lookup took longer than ${timeoutMs} ms`);
      },
    );
  }

  function failed(error: unknown): Reply {
    report(error);
    return errorReply('internal', 'The payment status could not be read. Please try again.');
  }

  return corsEndpoint(cors, handle, { crashed: failed });
}

/** `payments` (and its gateway, hooks and interval) as a lookup; refuses a half-given ledger with a TypeError. */
function ledgerLookup(options: StatusHandlerOptions, timeoutMs: number): StatusLookup {
  const fail = (problem: string) => {
    throw new TypeError(`createStatusHandler: ${problem}`);
  };
  assertStore(options.payments, PAYMENT_STORE_METHODS, 'createStatusHandler: the payments store');
  if (typeof options.gateway?.query !== 'function') fail('payments needs gateway (createGateway), to re-query a PENDING payment');
  for (const name of ['onPaid', 'onFailed', 'onEvent'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') fail(`${name} must be a function`);
  }
  const recheckAfterMs = options.recheckAfterMs ?? DEFAULT_RECHECK_AFTER_MS;
  if (!(typeof recheckAfterMs === 'number' && Number.isFinite(recheckAfterMs) && recheckAfterMs >= 0)) {
    fail('recheckAfterMs must be a finite number, 0 or more');
  }
  const read = createLedgerReader({
    payments: options.payments!,
    gateway: options.gateway!,
    onPaid: options.onPaid,
    onFailed: options.onFailed,
    emit: createEmitter(options.onEvent),
    recheckAfterMs,
    recheckWaitMs: timeoutMs / 2,
  });
  return (paymentReference) => read(paymentReference);
}

/**
 * The status handler's answer from the ledger. A `PENDING` entry nobody has asked the gateway about
 * for `recheckAfterMs` is re-queried by one poll, the one whose compare-and-set on its `checkedAt`
 * lands (here or on another instance), and settled through the same transition as the webhook's, so
 * `onPaid` runs once per reference whichever path wins. The other polls answer what they read.
 */

/** What `onEvent` hears from the status handler: references, codes and amounts, never a token, key or customer detail. */
export type StatusEvent =
  | { type: 'verified'; paymentReference: string; state: Payment['state']; code: string }
  /** The re-query got no readable answer: the entry stays as it was until the next interval. */
  | { type: 'unverified'; paymentReference: string; reason: string; httpStatus?: number }
  | SettleEvent;

export type LedgerStatus = { status: Payment['state']; amount: string; currency: string };

export type LedgerReaderOptions = {
  payments: PaymentStore;
  gateway: Pick<Gateway, 'query'>;
  /** Without it no poll settles a payment (the webhook handler does, with its own `onPaid`), so none re-queries. */
  onPaid: PaymentHook | undefined;
  onFailed: PaymentHook | undefined;
  emit: (event: StatusEvent) => void;
  recheckAfterMs: number;
  /** How long a poll waits for its re-query before answering what the ledger said; the re-query goes on. */
  recheckWaitMs: number;
  now?: () => number;
};

export type LedgerReader = (paymentReference: string) => Promise<LedgerStatus | undefined>;

function createLedgerReader(options: LedgerReaderOptions): LedgerReader {
  const { payments, gateway, onPaid, emit, recheckAfterMs } = options;
  const now = options.now ?? Date.now;

  function isDue(entry: Payment): boolean {
    return onPaid !== undefined && entry.state === 'PENDING' && now() - (entry.checkedAt ?? entry.createdAt) >= recheckAfterMs;
  }

  /** Claims this interval's query for `entry`, asks the gateway and settles; what the ledger says afterwards. */
  async function recheck(entry: Payment): Promise<Payment> {
    const reference = entry.paymentReference;
    const claim: Payment = { ...entry, checkedAt: now() };
    try {
      if (!(await payments.update(claim))) return entry; // another poll, here or elsewhere, asks this time
    } catch (error) {
      emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) });
      return entry;
    }
    const claimed: Payment = { ...claim, version: entry.version + 1 };
    let outcome: QueryOutcome;
    try {
      outcome = await gateway.query(reference);
    } catch {
      outcome = { kind: 'unverified', reason: 'unreadable' };
    }
    if (outcome.kind !== 'answer') {
      emit({ type: 'unverified', paymentReference: reference, reason: outcome.reason, ...(outcome.httpStatus ? { httpStatus: outcome.httpStatus } : {}) });
      return claimed;
    }
    emit({ type: 'verified', paymentReference: reference, state: outcome.state, code: outcome.code });
    const result = await settlePayment(claimed, outcome, { payments, onPaid: onPaid!, onFailed: options.onFailed, emit, now });
    return result.kind === 'missing' ? claimed : result.payment;
  }

  /** The re-query's result, or `entry` once `recheckWaitMs` passed. */
  function withinWait(rechecking: Promise<Payment>, entry: Payment): Promise<Payment> {
    return withDeadline(options.recheckWaitMs, () => rechecking, () => entry);
  }

  return async (paymentReference) => {
    const entry = await payments.get(paymentReference);
    if (!entry) return undefined;
    const current = isDue(entry) ? await withinWait(recheck(entry).catch(() => entry), entry) : entry;
    return { status: current.state, amount: current.amount, currency: current.currency };
  };
}

/**
 * `order.statusToken`: proof that whoever polls `status-url` for a reference got it from the session
 * endpoint, so references (often order numbers) cannot be enumerated. An HMAC-SHA256 over the
 * reference and an expiry, through WebCrypto so that edge runtimes work:
 *
 *   <expiry, seconds since the epoch>.<base64url HMAC of "<reference>\n<expiry>">
 */

/** At least 32 bytes: a string (counted as UTF-8) or raw bytes. */
export type StatusSecret = string | Uint8Array;

export type StatusTokens = {
  sign(paymentReference: string): Promise<string>;
  /** False for a missing, malformed, forged or expired token. */
  verify(paymentReference: string, token: string | null): Promise<boolean>;
};

const MIN_SECRET_BYTES = 32;
/** How long a token works by default: a customer may keep the page open for a day. */
const DEFAULT_STATUS_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
const encoder = new TextEncoder();

/** Refuses a missing or short secret with a TypeError that says what to pass; `who` names the caller. */
function secretBytes(secret: unknown, who: string): Uint8Array<ArrayBuffer> {
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret instanceof Uint8Array ? new Uint8Array(secret) : undefined;
  if (!bytes || bytes.byteLength < MIN_SECRET_BYTES) {
    throw new TypeError(
      `${who}: pass statusSecret, a random secret of at least ${MIN_SECRET_BYTES} bytes kept in your configuration ` +
        `(e.g. the output of \`openssl rand -base64 32\`), the same one to the session and status handlers` +
        (bytes ? ` (the one given has ${bytes.byteLength} bytes)` : ''),
    );
  }
  return bytes;
}

export function createStatusTokens(
  secret: StatusSecret,
  options: { ttlMs?: number; now?: () => number; who: string },
): StatusTokens {
  const bytes = secretBytes(secret, options.who);
  const ttlMs = options.ttlMs ?? DEFAULT_STATUS_TOKEN_TTL_MS;
  const now = options.now ?? Date.now;
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = () =>
    (key ??= crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  const signed = (paymentReference: string, expiry: string) => encoder.encode(`${paymentReference}\n${expiry}`);

  return {
    async sign(paymentReference) {
      const expiry = String(Math.ceil((now() + ttlMs) / 1000));
      const mac = await crypto.subtle.sign('HMAC', await hmacKey(), signed(paymentReference, expiry));
      return `${expiry}.${base64url(new Uint8Array(mac))}`;
    },
    async verify(paymentReference, token) {
      const match = token === null ? null : TOKEN.exec(token);
      if (!match) return false;
      const [, expiry, mac] = match as unknown as [string, string, string];
      if (Number(expiry) * 1000 <= now()) return false;
      // `verify` recomputes the HMAC and compares it in constant time (no early exit on a mismatch).
      return crypto.subtle.verify('HMAC', await hmacKey(), fromBase64url(mac), signed(paymentReference, expiry));
    },
  };
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
