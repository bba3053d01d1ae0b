import type { SessionRequest } from '../schemas.js';

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

/**
 * Finds the client's address. `env` is the handler's second argument, whatever the adapter passes:
 * the default reads `env.incoming.socket.remoteAddress` (@hono/node-server's `getRequestListener` and
 * `serve`) and `env.remoteAddr.hostname` (`Deno.serve`). Behind a proxy, pass your own that reads
 * the header your proxy sets (and only that proxy can set).
 */
export type ClientAddress = (request: Request, env: unknown) => string | undefined;

export const adapterClientAddress: ClientAddress = (_request, env) => {
  const given = env as { incoming?: { socket?: { remoteAddress?: unknown } }; remoteAddr?: { hostname?: unknown } } | undefined;
  const address = given?.incoming?.socket?.remoteAddress ?? given?.remoteAddr?.hostname;
  return typeof address === 'string' ? address : undefined;
};

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
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as { [RATE_LIMIT_BRAND]?: unknown })[RATE_LIMIT_BRAND] === true &&
      typeof (error as { retryAfterSeconds?: unknown }).retryAfterSeconds === 'number'
    );
  }

  constructor(options: RateLimitErrorOptions) {
    super(options.message ?? 'Too many payment attempts.');
    this.name = 'RateLimitError';
    const seconds = Math.ceil(Number(options?.retryAfterSeconds));
    this.retryAfterSeconds = Number.isFinite(seconds) && seconds >= 1 ? seconds : 1;
    Object.defineProperty(this, RATE_LIMIT_BRAND, { value: true });
  }
}
