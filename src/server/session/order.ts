// What the merchant's code decides: the order it charges (`OrderResolver`, refused with
// `OrderError`), the paymentReference derived when it names none, and `beforeInitiate` (refused with
// `RateLimitError`).
import * as z from 'zod/mini';
import { HINT_PATTERNS, PAYMENT_REFERENCE } from '../../contract/rules.js';
import { chargeAmountSchema, type SessionRequest } from '../../contract/schemas.js';
import type { FieldErrors } from '../http/reply.js';

/** What the merchant charges, decided on the server. */
export type Order = {
  /** A numeric string such as `"1500"` or `"1500.50"`: what the gateway charges, whatever the widget showed. */
  amount: string;
  /** Default `NGN`. */
  currency?: string;
  /** Default `NG`. */
  country?: string;
  /**
   * Default: derived from the `Idempotency-Key` (`pw-` and 32 hex digits), so every retry of one
   * payment attempt sends the gateway the same reference. Your own must be as stable: derive it
   * from your cart or order id, never at random (a retry whose record was lost runs the resolver
   * again; the ledger then keeps the key's first reference and ignores the new one).
   */
  paymentReference?: string;
  callbackUrl: string;
  redirectUrl: string;
  /**
   * The part of `amount` that is a fee the customer bears, when the merchant passes one on: a
   * numeric string like `amount` (`"50"`, `"50.00"`), 0 or more and less than `amount`. Only shown
   * ("includes ₦50.00 fee", through the session answer's `order.fee`): the gateway charges exactly
   * `amount`, fee included, so add the fee to `amount` yourself.
   */
  fee?: string;
};

/** The order with its defaults filled in; `fee` stays optional. */
export type ResolvedOrder = Required<Omit<Order, 'fee'>> & Pick<Order, 'fee'>;

export type OrderContext = { request: Request };

/**
 * Decides the order for a validated widget request. Throw an {@link OrderError} to refuse it with a
 * 4xx the widget shows the customer; any other throw becomes a 500 `internal` with a generic message.
 *
 * @example A donation form: the customer picks the amount, the server only accepts it within bounds.
 * ```ts
 * const order: OrderResolver = async (request) => {
 *   const amount = Number(request.amount);
 *   if (!request.amount || !(amount >= 500 && amount <= 500_000)) {
 *     throw new OrderError('Donations go from ₦500 to ₦500,000.', {
 *       fields: { amount: 'Choose an amount between 500 and 500000.' },
 *     });
 *   }
 *   return {
 *     amount: amount.toFixed(2),
 *     currency: 'NGN',
 *     country: 'NG',
 *     // No paymentReference: the handler derives it from the Idempotency-Key, so a retry of this
 *     // attempt names the same payment (a random one here would be new on every run).
 *     callbackUrl: 'https://charity.example/payments/callback',
 *     redirectUrl: 'https://charity.example/thank-you',
 *   };
 * };
 * ```
 */
export type OrderResolver = (request: SessionRequest, context: OrderContext) => Order | Promise<Order>;

export type OrderErrorOptions = {
  /** Field name → message, shown beside the field in the widget. */
  fields?: FieldErrors;
  /** A 4xx status; default 422. */
  status?: number;
};

/** Shared by every copy of this package loaded in one process, so {@link OrderError.is} sees them all. */
const ORDER_ERROR_BRAND = Symbol.for('pay-widget.OrderError');

/** Thrown by an {@link OrderResolver} to refuse a request; its message reaches the customer. */
export class OrderError extends Error {
  readonly fields: FieldErrors | undefined;
  readonly status: number;

  /**
   * Whether `error` is an `OrderError`, also one made by another copy of this package (two
   * versions installed, or a bundled and an external copy), where `instanceof` says no.
   */
  static is(error: unknown): error is OrderError {
    return hasBrand(error, ORDER_ERROR_BRAND) && typeof error.message === 'string' && typeof error.status === 'number';
  }

  constructor(message: string, options: OrderErrorOptions = {}) {
    super(message);
    this.name = 'OrderError';
    this.fields = options.fields;
    this.status = options.status !== undefined && options.status >= 400 && options.status < 500 ? options.status : 422;
    Object.defineProperty(this, ORDER_ERROR_BRAND, { value: true });
  }
}

/** The same rules as the widget's hints (rules.ts), but not trimmed: the resolver is server code. */
const orderSchema = z.object({
  amount: chargeAmountSchema,
  currency: z.optional(z.string().check(z.regex(HINT_PATTERNS.currency))),
  country: z.optional(z.string().check(z.regex(HINT_PATTERNS.country))),
  paymentReference: z.optional(z.string().check(z.regex(PAYMENT_REFERENCE))),
  callbackUrl: z.url(),
  redirectUrl: z.url(),
  fee: z.optional(z.string().check(z.regex(HINT_PATTERNS.amount))),
});

type OrderCheck = { ok: true; order: ResolvedOrder } | { ok: false; badFields: string[] };

/** The resolver is the merchant's code; a bad order is a server bug, reported by field names only. */
export function checkOrder(value: unknown, newReference: () => string): OrderCheck {
  const parsed = orderSchema.safeParse(value);
  if (!parsed.success) {
    return { ok: false, badFields: [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'order')))] };
  }
  const order = parsed.data;
  // The fee is part of the amount: a fee of all of it (or more) is a resolver's mistake.
  if (order.fee !== undefined && !(Number(order.fee) < Number(order.amount))) return { ok: false, badFields: ['fee'] };
  return {
    ok: true,
    order: {
      amount: order.amount,
      currency: order.currency ?? 'NGN',
      country: order.country ?? 'NG',
      paymentReference: order.paymentReference ?? newReference(),
      callbackUrl: order.callbackUrl,
      redirectUrl: order.redirectUrl,
      ...(order.fee === undefined ? {} : { fee: order.fee }),
    },
  };
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The order's URLs the gateway would send the customer or its notifications to: `https:` only, or
 * `http:` on this machine for development. Returns the names of the ones that are not.
 */
export function unsafeOrderUrls(order: ResolvedOrder): ('callbackUrl' | 'redirectUrl')[] {
  return (['callbackUrl', 'redirectUrl'] as const).filter((name) => {
    const url = new URL(order[name]);
    return !(url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)));
  });
}

type Sha256Hex = (text: string) => string;

/**
 * Node, Bun and Deno hash synchronously through `node:crypto`, reached with
 * `process.getBuiltinModule` (Node ≥ 20.16) so that nothing imports `node:` and edge bundles still
 * build. `crypto.subtle.digest` is the fallback: it gives the same digest, but in Node it runs on
 * the thread pool, a round trip that cost ~0.3 ms per request when the machine is otherwise idle.
 */
const sha256Hex: Sha256Hex | undefined = (() => {
  try {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const nodeCrypto = process?.getBuiltinModule?.('node:crypto') as
      | {
          createHash?: (algorithm: string) => {
            update(data: string, encoding: 'utf8'): { digest(encoding: 'hex'): string };
          };
        }
      | undefined;
    const createHash = nodeCrypto?.createHash;
    if (typeof createHash !== 'function') return undefined;
    return (text) => createHash('sha256').update(text, 'utf8').digest('hex');
  } catch {
    return undefined;
  }
})();

/**
 * The paymentReference sent when the order resolver gives none: derived from the Idempotency-Key, so
 * every attempt for one key, even one whose stored record was lost, names the same payment to the
 * gateway. `pw-` and 32 hex digits (128 bits of SHA-256). Synchronous where the runtime allows it.
 */
export function referenceForKey(key: string): string | Promise<string> {
  if (sha256Hex) return `pw-${sha256Hex(key).slice(0, 32)}`;
  return subtleReferenceForKey(key);
}

/** The same reference through Web Crypto, for runtimes without `node:crypto`. */
export async function subtleReferenceForKey(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return `pw-${hex}`;
}

/** For a request without an Idempotency-Key (only when `requireIdempotencyKey` is false). */
export function randomReference(): string {
  return `pw-${crypto.randomUUID()}`;
}

/** What `beforeInitiate` is told about a validated request, before any order is resolved. */
export type BeforeInitiateContext = {
  request: Request;
  /** The validated body. */
  body: SessionRequest;
  /** The client's address as the server adapter gives it (see {@link ClientAddress}), or undefined. */
  clientAddress: string | undefined;
};

/**
 * Rate limits and fraud rules. Throw a {@link RateLimitError} to answer 429 with `Retry-After`, or an
 * `OrderError` to refuse the request with its 4xx; anything else thrown answers 500.
 */
export type BeforeInitiate = (context: BeforeInitiateContext) => void | Promise<void>;

export type RateLimitErrorOptions = {
  /** Sent as `Retry-After`; rounded up to whole seconds, at least 1. */
  retryAfterSeconds: number;
  message?: string;
};

const RATE_LIMIT_BRAND = Symbol.for('pay-widget.RateLimitError');

/** Thrown by `beforeInitiate` to answer 429 `rate_limited` with a `Retry-After` header. */
export class RateLimitError extends Error {
  readonly retryAfterSeconds: number;

  /** Also true for one made by another copy of this package, where `instanceof` says no. */
  static is(error: unknown): error is RateLimitError {
    return hasBrand(error, RATE_LIMIT_BRAND) && typeof error.retryAfterSeconds === 'number';
  }

  constructor(options: RateLimitErrorOptions) {
    super(options.message ?? 'Too many payment attempts.');
    this.name = 'RateLimitError';
    const seconds = Math.ceil(Number(options?.retryAfterSeconds));
    this.retryAfterSeconds = Number.isFinite(seconds) && seconds >= 1 ? seconds : 1;
    Object.defineProperty(this, RATE_LIMIT_BRAND, { value: true });
  }
}

/** Whether `error` carries `brand`, which every copy of this package in the process sets alike. */
function hasBrand(error: unknown, brand: symbol): error is Record<PropertyKey, unknown> {
  return typeof error === 'object' && error !== null && (error as Record<PropertyKey, unknown>)[brand] === true;
}
