// Talks to the merchant's session endpoint and status endpoint. Every failure, whatever its cause,
// comes out as one typed `PayFailure`, so the element has a single thing to show.
import type { PayFailure } from './flow.js';
import { envelopeMessage, readEnvelope } from '../contract/envelope.js';
import {
  AMOUNT,
  matchesPatterns,
  ORDER_PATTERNS,
  PAYMENT_STATUSES,
  STATUS_REASONS,
  type StatusReview,
} from '../contract/rules.js';
import type {
  ErrorBody,
  Instructions,
  Order,
  PaymentStatus,
  PaymentType,
  SessionRequest,
  StatusResponse,
} from '../contract/schemas.js';
import type { Messages } from './messages/index.js';

export type InitiateOptions = { idempotencyKey: string; signal: AbortSignal };

/** The `initiate` property: replaces the built-in `fetch` to `session-url`; resolves to the envelope. */
export type Initiate = (request: SessionRequest, options: InitiateOptions) => Promise<unknown>;

export class PayFailureError extends Error {
  constructor(readonly failure: PayFailure) {
    super(failure.message ?? failure.code);
  }
}

const fail = (failure: PayFailure): never => {
  throw new PayFailureError(failure);
};

/** Posts the session-endpoint contract and reads the gateway envelope that comes back. */
export function postSession(url: string, request: SessionRequest, options: InitiateOptions): Promise<unknown> {
  return fetchWithCorsHint(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'Idempotency-Key': options.idempotencyKey,
    },
    body: JSON.stringify(request),
    credentials: 'same-origin',
    signal: options.signal,
  }).then(async (response) => {
    const body = await readJson(response);
    if (!response.ok) fail(httpFailure(response.status, body));
    return body;
  });
}

/** What a successful initiation gives: the gateway's instructions and, when the server sent it, its order. */
export type Initiated = { instructions: Instructions; order: Order | undefined };

/**
 * Runs one initiation through `initiate`, abandoning it after `timeoutMs` or when `signal` aborts,
 * and turns the answer into instructions or a failure.
 */
export async function initiatePayment(
  initiate: Initiate,
  request: SessionRequest,
  { idempotencyKey, signal, timeoutMs }: InitiateOptions & { timeoutMs: number },
): Promise<Initiated> {
  const cutoff = abortAfter(signal, timeoutMs);
  const abandoned = new Promise<never>((_, reject) =>
    cutoff.signal.addEventListener('abort', () => reject(cutoff.signal.reason)),
  );

  try {
    const body = await Promise.race([initiate(request, { idempotencyKey, signal: cutoff.signal }), abandoned]);
    return readSessionAnswer(body, request.paymentType);
  } catch (error) {
    if (error instanceof PayFailureError) throw error;
    return fail({ code: cutoff.timedOut() ? 'timeout' : 'network', message: undefined, retryable: true });
  } finally {
    cutoff.dispose();
  }
}

/**
 * The session answer `body` of a `paymentType` payment as the widget shows it: the gateway's
 * instructions and the server's order; throws the failure it is otherwise. An attempt kept from
 * before a reload is read with it too (kept-attempt.ts): anything of the page's origin can write it.
 */
export function readSessionAnswer(body: unknown, paymentType: PaymentType): Initiated {
  const envelope = readEnvelope(body, paymentType);
  if (envelope.ok) return { instructions: envelope.instructions, order: readOrder(body, envelope.instructions) };
  return fail({
    code: envelope.reason === 'not-an-envelope' ? 'invalid-response' : 'gateway',
    message: envelope.message,
    retryable: envelope.reason !== 'not-success',
  });
}

/**
 * The body's `order`, when it is well formed: the amount the server charges, so the only one shown,
 * with the fee it includes and the transfer account's expiry when the server gave them.
 * A missing or malformed order is no order (no amount is shown, never the page's guess); one that
 * names another payment than the gateway's instructions is a failure: which one is charged is unknown.
 */
function readOrder(body: unknown, { paymentReference }: Instructions): Order | undefined {
  const { order } = body as { order?: Partial<Order> | null };
  const named = order?.paymentReference;
  if (typeof named === 'string' && named !== paymentReference) {
    fail({ code: 'invalid-response', message: undefined, retryable: false });
  }
  if (!matchesPatterns(order, ORDER_PATTERNS) || !(Number(order!.amount) > 0)) return undefined;
  const { amount, currency, statusToken, statusUrl, fee, expiresAt, expiresInMs } = order as Order;
  const expires = typeof expiresAt === 'string' && Date.parse(expiresAt) > 0;
  return {
    paymentReference,
    amount,
    currency: currency.toUpperCase(),
    ...(typeof statusToken === 'string' && statusToken ? { statusToken } : {}),
    ...(typeof statusUrl === 'string' && statusUrl ? { statusUrl } : {}),
    // A fee is shown only as part of a larger amount; an unreadable one or expiry is left out, not guessed.
    ...(typeof fee === 'string' && AMOUNT.test(fee) && +fee > 0 && +fee < +amount ? { fee } : {}),
    ...(expires ? { expiresAt } : {}),
    // The time left as the server measured it, which the countdown trusts over the phone's clock.
    ...(expires && typeof expiresInMs === 'number' && expiresInMs >= 0 ? { expiresInMs } : {}),
  };
}

/**
 * `review` when the answer gave a `reason` the widget knows, with what was received when well formed;
 * `now`, the server's clock when it answered (ISO 8601), when it said.
 */
export type StatusAnswer = {
  status: PaymentStatus;
  message: string | undefined;
  review?: StatusReview | undefined;
  now?: string | undefined;
};

/** Which payment to ask about: its reference and, when the session's order gave one, its status token. */
export type StatusQuery = { paymentReference: string; statusToken?: string | undefined };

/**
 * Asks `status-url` how the payment stands; `recheck` (the customer says they have paid) adds
 * `recheck=1`, which asks the server to re-query the gateway now. Throws on any failure; the poller
 * just tries again.
 */
export async function fetchStatus(
  statusUrl: string,
  { paymentReference, statusToken }: StatusQuery,
  { signal, timeoutMs, recheck }: { signal: AbortSignal; timeoutMs: number; recheck?: boolean },
): Promise<StatusAnswer> {
  const url = new URL(statusUrl, document.baseURI);
  url.searchParams.set('paymentReference', paymentReference);
  if (statusToken) url.searchParams.set('statusToken', statusToken);
  if (recheck) url.searchParams.set('recheck', '1');
  const cutoff = abortAfter(signal, timeoutMs);
  try {
    const response = await fetchWithCorsHint(url, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      signal: cutoff.signal,
    });
    const body = (await readJson(response)) as Partial<StatusResponse> | undefined;
    const status = body?.status;
    if (!response.ok || !status || !PAYMENT_STATUSES.includes(status)) throw new Error(`status ${response.status}`);
    const review = readReview(body);
    const now = typeof body.now === 'string' ? { now: body.now } : {};
    return {
      status,
      message: typeof body.message === 'string' ? body.message : undefined,
      ...(review ? { review } : {}),
      ...now,
    };
  } finally {
    cutoff.dispose();
  }
}

function readReview({ reason, amountReceived, currencyReceived }: Partial<StatusResponse>): StatusReview | undefined {
  if (!STATUS_REASONS.includes(reason as StatusReview['reason'])) return undefined;
  const amount = typeof amountReceived === 'string' && AMOUNT.test(amountReceived);
  const currency = amount && typeof currencyReceived === 'string' && /^[A-Z]{3}$/.test(currencyReceived);
  return { reason, ...(amount ? { amountReceived } : {}), ...(currency ? { currencyReceived } : {}) } as StatusReview;
}

let corsHinted = false;

/**
 * `fetch`, telling the developer, once per page, what a cross-origin request that fails without an
 * answer most likely is: the browser blocking it for CORS, which a page sees only as a TypeError.
 * A same-origin failure is the network's; an abort is an AbortError. The customer's message stays.
 */
async function fetchWithCorsHint(url: string | URL, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const { origin } = new URL(url, document.baseURI);
    if (error instanceof TypeError && origin !== location.origin && !corsHinted) {
      corsHinted = true;
      console.warn(
        `<pay-widget>: no answer from ${origin}. Blocked by CORS? Add ${location.origin} to allowedOrigins there.`,
      );
    }
    throw error;
  }
}

/**
 * A signal that aborts with `parent` or after `timeoutMs`, whichever comes first. Not
 * `AbortSignal.any()` + `AbortSignal.timeout()`: the widget also runs where those are missing.
 */
function abortAfter(parent: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  const abort = () => controller.abort();
  let timedOut = false;
  parent.addEventListener('abort', abort);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      parent.removeEventListener('abort', abort);
    },
  };
}

/** The body as JSON, or `undefined` when it is empty, HTML or otherwise unreadable. */
async function readJson(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}

/**
 * The server's error codes a customer meets (from the session endpoint's catalogue) in the widget's
 * own words, in the customer's language, the gateway's (`gateway_…`) too; any other code (a page
 * or server set up wrong, a hand-written endpoint's own) shows the server's text.
 */
const SAYS: Partial<Record<string, keyof Messages>> = {
  payment_declined: 'declined',
  order_refused: 'refused',
  order_changed: 'orderChanged',
  duplicate_reference: 'duplicate',
  rate_limited: 'rateLimited',
  server_busy: 'busy',
  internal: 'busy',
  idempotency_key_in_use: 'busy',
  gateway_timeout: 'error-timeout',
  request_timeout: 'error-timeout',
  validation: 'error-validation',
  config: 'error-config',
};

function saysFor(code: string): keyof Messages | undefined {
  return SAYS[code] ?? (/^(invalid_)?gateway_/.test(code) ? 'error-gateway' : undefined);
}

function httpFailure(status: number, body: unknown): PayFailure {
  // 409: the server is still working on this key's first request; the same key will get its answer.
  const retryable = status >= 500 || status === 408 || status === 409 || status === 429;
  const error = readErrorBody(body);
  if (!error) {
    // A hand-written endpoint may pass the gateway's own error body through; use its message if it has one.
    return { code: 'http', message: envelopeMessage(body), retryable };
  }
  const { code, message, fields } = error;
  const says = saysFor(code);
  const ours = says ? { says } : {};
  if (code === 'validation' || fields) return { code: 'validation', message, retryable: false, fields, ...ours };
  // The server's codes for the gateway's own failures (`gateway_timeout`, `payment_declined`, …).
  const fromGateway = /gateway|declined/.test(code);
  // The server knows best whether the same request can still succeed (a 502 for a refusal cannot).
  return { code: fromGateway ? 'gateway' : 'http', message, retryable: error.retryable ?? retryable, ...ours };
}

/** The contract's `{ status: "ERROR", error: { code, message, fields? } }`, keeping only string field messages. */
function readErrorBody(body: unknown): ErrorBody['error'] | undefined {
  const { status, error } = (body ?? {}) as Partial<ErrorBody>;
  if (status !== 'ERROR' || typeof error?.code !== 'string' || typeof error.message !== 'string') return undefined;
  const fields = Object.entries(error.fields ?? {}).filter(([, message]) => typeof message === 'string');
  const retryable = typeof error.retryable === 'boolean' ? { retryable: error.retryable } : {};
  return {
    code: error.code,
    message: error.message,
    ...retryable,
    ...(fields.length ? { fields: Object.fromEntries(fields) } : {}),
  };
}
