import { readEnvelope } from '../envelope.js';
import { INITIATE_PATH, QUERY_VERSIONS, queryPath, TOKEN_PATH, type QueryVersion } from '../wire/gateway-paths.js';
import { PAYMENTS_PATTERNS, type PaymentType } from '../rules.js';
import type { GatewayRequest, SessionRequest } from '../schemas.js';
import { isRecord, parseJson } from './http/json.js';
import { createRedactor } from './http/redact.js';
import type { ResolvedOrder } from './order.js';
import type { PaymentState } from './stores.js';

/**
 * One gateway account: its bearer token (made from the dashboard's keys, or given), the initiation
 * and the payment query. Every call ends in an outcome; nothing here throws, and no outcome, message
 * or reason ever carries the token or a key (spec/gateway-companion.md §1).
 */

/**
 * The spec's success envelope (2.2), rebuilt from the checked answer with only the fields the spec
 * names for the payment type (2.3, 2.4): whatever else the gateway put in it stays on the server.
 */
export type CheckedEnvelope = {
  status: 'SUCCESS';
  data: { code: string | null; message: string | null; payments: Record<string, string> };
};

export type GatewayOutcome =
  | { kind: 'success'; httpStatus: number; envelope: CheckedEnvelope }
  /** HTTP 402, or a 2xx envelope with a failure status (FAILED, DECLINED, ERROR): the payment was refused. */
  | { kind: 'declined'; httpStatus: number; message: string | undefined }
  /** A 2xx envelope with any other status (PENDING, …): nothing final, so a retry asks again. */
  | { kind: 'unconfirmed'; httpStatus: number; status: string; message: string | undefined }
  /** Any other status outside 2xx, redirects (never followed) included. */
  | { kind: 'http-error'; httpStatus: number; message: string | undefined }
  | { kind: 'missing-fields'; httpStatus: number; message: string | undefined }
  /**
   * §4's duplicate-reference variants: the gateway already has a payment with this reference. A
   * definitive answer for this attempt, but no evidence of what became of that payment.
   */
  | { kind: 'duplicate-reference'; httpStatus: number; message: string | undefined }
  | { kind: 'unreadable'; httpStatus: number }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string };

/**
 * Why no bearer token could be had. `refused`: `encrypt/keys` answered outside 2xx (`httpStatus`);
 * `unreadable`: it answered 2xx without a token; `source-failed`: the `accessToken` function threw
 * or gave no string.
 */
export type TokenFailure = {
  kind: 'token-failed';
  reason: 'refused' | 'unreadable' | 'timeout' | 'unreachable' | 'source-failed';
  httpStatus?: number;
};

/** What `initiate` ends in: the session handler's outcomes, plus a token that could not be had. */
export type InitiateOutcome = GatewayOutcome | TokenFailure;

/** The query's verdict (§2 "Codes"): `data.code` decides, never the envelope's own `status`. */
export type QueryAnswer = {
  kind: 'answer';
  state: PaymentState;
  /** `data.code` as sent (trimmed); empty when the answer had none. */
  code: string;
  /** `paymentBreakdown.amount` when present (`payments.amount` may include the fee), else `payments.amount`. */
  amount: number | undefined;
  currency: string | undefined;
  /** `data.message`, with the token and keys removed. */
  message: string | undefined;
  /** Set when the code deserves a look: unknown, `S404`, `S7`, or `SM_10` (approved for part of the amount). */
  report?: 'unknown-code' | 'no-data' | 'generic-error' | 'partial-amount';
};

/** Anything that is not a readable answer: the ledger keeps its state (never SUCCESS, never FAILED). */
export type QueryUnverified = {
  kind: 'unverified';
  reason: 'http-error' | 'unreadable' | 'other-reference' | 'timeout' | 'unreachable' | TokenFailure['reason'];
  httpStatus?: number;
};

export type QueryOutcome = QueryAnswer | QueryUnverified;

export type CallOptions = {
  /** Ends the call early; it then resolves as a time-out. */
  signal?: AbortSignal;
};

export type AccessToken = string | (() => string | Promise<string>);

export type GatewayOptions = {
  /** The gateway's base URL, e.g. `https://seerbitapi.com`. */
  baseUrl: string;
  /** The dashboard's public key (sent in every initiation body by the session handler). */
  publicKey: string;
  /** The dashboard's secret key: the token is made from it and `publicKey` through `encrypt/keys`. */
  secretKey?: string;
  /** Instead of `secretKey`: a token made elsewhere, or a function giving one (called per call). */
  accessToken?: AccessToken;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** The query path's version; default `v3` (current docs). A 404 there is retried once on the other. */
  queryVersion?: QueryVersion;
  /** How long each request to the gateway may take, body included; default 15 000 ms. */
  timeoutMs?: number;
};

export type Gateway = {
  readonly baseUrl: string;
  readonly publicKey: string;
  /**
   * `POST /api/v2/payments/initiates`. On a 401 the token is renewed once and the same `body` (so the
   * same `paymentReference`) sent once more.
   */
  initiate(body: GatewayRequest, options?: CallOptions): Promise<InitiateOutcome>;
  /** `GET /api/{v3|v2}/payments/query/{paymentReference}`, read into the ledger's terms. */
  query(paymentReference: string, options?: CallOptions): Promise<QueryOutcome>;
};

/**
 * The gateway's message is kept whole (up to this bound on an absurd body): whoever shows it must
 * redact customer details before shortening it, or a cut could leave half an e-mail address behind.
 */
const MAX_RAW_MESSAGE = 8192;

/** Envelope statuses that refuse the payment for good; the spec shows only `SUCCESS`. */
const FINAL_FAILURE = /^(FAILED|DECLINED|ERROR)$/i;

export function createGateway(options: GatewayOptions): Gateway {
  assertOptions(options);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const primary = options.queryVersion ?? 'v3';
  const fallback = QUERY_VERSIONS.find((version) => version !== primary)!;
  const secrets = [options.publicKey, options.secretKey, typeof options.accessToken === 'string' ? options.accessToken : ''];
  const redactor = createRedactor(secrets.filter((secret): secret is string => !!secret));
  const send = (url: string, init: RequestInit, signal?: AbortSignal) =>
    exchange(fetchFn, url, init, timeoutMs, signal && subscribe(signal));
  const tokens =
    options.secretKey !== undefined
      ? keyTokenSource(async () => {
          const answer = await send(baseUrl + TOKEN_PATH, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ key: `${options.secretKey}.${options.publicKey}` }),
          });
          return readTokenAnswer(answer);
        })
      : givenTokenSource(options.accessToken!);

  /** Gets a token and makes the call; after a 401, renews the token once and makes the same call again. */
  async function authorised<T extends { kind: string }>(
    call: (token: string) => Promise<T>,
    unauthorised: (outcome: T) => boolean,
    signal: AbortSignal | undefined,
    failed: (failure: TokenFailure) => T,
  ): Promise<T> {
    const token = await untilAborted(tokens.current(), signal);
    if (!token.ok) return failed(token.failure);
    redactor.add(token.token);
    const outcome = await call(token.token);
    if (!unauthorised(outcome) || signal?.aborted) return outcome;
    const renewed = await untilAborted(tokens.renew(token.token), signal);
    if (!renewed.ok) return failed(renewed.failure);
    if (renewed.token === token.token) return outcome;
    redactor.add(renewed.token);
    return call(renewed.token);
  }

  /** The token, the keys and anything after `Bearer `, out of the gateway's words. */
  const scrub = (message: string | undefined) => message && redactor.text(message);

  return {
    baseUrl,
    publicKey: options.publicKey,

    async initiate(body, { signal } = {}) {
      const outcome = await authorised<InitiateOutcome>(
        async (token) =>
          readInitiation(
            await send(baseUrl + INITIATE_PATH, { method: 'POST', headers: jsonHeaders(token), body: JSON.stringify(body) }, signal),
            body.paymentType,
          ),
        (outcome) => outcome.kind === 'http-error' && outcome.httpStatus === 401,
        signal,
        (failure) => failure,
      );
      if ('message' in outcome) outcome.message = scrub(outcome.message);
      if (outcome.kind === 'success') outcome.envelope = redactEnvelope(outcome.envelope, redactor.text);
      return outcome;
    },

    async query(paymentReference, { signal } = {}) {
      const ask = async (token: string, version: QueryVersion) =>
        send(baseUrl + queryPath(version, paymentReference), { method: 'GET', headers: jsonHeaders(token) }, signal);
      const outcome = await authorised<QueryOutcome>(
        async (token) => {
          let answer = await ask(token, primary);
          // A 404 names a path this gateway does not serve, not a payment's fate.
          if (answer.kind === 'answer' && answer.status === 404 && !signal?.aborted) answer = await ask(token, fallback);
          return readQueryAnswer(answer, paymentReference);
        },
        (outcome) => outcome.kind === 'unverified' && outcome.httpStatus === 401,
        signal,
        (failure) => ({ kind: 'unverified', reason: failure.reason, ...httpStatusOf(failure) }),
      );
      if (outcome.kind === 'answer') outcome.message = scrub(outcome.message);
      return outcome;
    },
  };
}

// ─── the bearer token ───────────────────────────────────────────────────────────────────────────

type TokenResult = { ok: true; token: string } | { ok: false; failure: TokenFailure };

type TokenSource = {
  /** The token to use now. */
  current(): Promise<TokenResult>;
  /** A token other than `used`, after the gateway refused `used` with a 401. */
  renew(used: string): Promise<TokenResult>;
};

/**
 * One `encrypt/keys` request at a time, its answer shared by every caller; kept until a 401 says it
 * is stale (the gateway publishes no lifetime). A failure is not kept: the next call asks again,
 * but no call asks twice.
 */
function keyTokenSource(request: () => Promise<TokenResult>): TokenSource {
  let held: { promise: Promise<TokenResult>; token?: string } | undefined;

  function start(): Promise<TokenResult> {
    const entry: { promise: Promise<TokenResult>; token?: string } = {
      promise: request().then((result) => {
        if (result.ok) entry.token = result.token;
        else if (held === entry) held = undefined;
        return result;
      }),
    };
    held = entry;
    return entry.promise;
  }

  return {
    current: () => held?.promise ?? start(),
    // Twenty callers refused with the same token make one renewal: the first replaces it, the rest
    // find a token (or a request) that is no longer the one they used.
    renew: (used) => (held && held.token !== used ? held.promise : start()),
  };
}

/** A merchant's own token: a string (never renewed) or a function, asked per call and once more after a 401. */
function givenTokenSource(accessToken: AccessToken): TokenSource {
  async function ask(): Promise<TokenResult> {
    try {
      const token = typeof accessToken === 'string' ? accessToken : await accessToken();
      if (typeof token === 'string' && token !== '') return { ok: true, token };
    } catch {
      // The function's error may quote the token: only the fact that it failed is kept.
    }
    return { ok: false, failure: { kind: 'token-failed', reason: 'source-failed' } };
  }
  return { current: ask, renew: ask };
}

/** §1: `data.EncryptedSecKey.encryptedKey`, the wrapper in any case, with or without its `p`. */
function readTokenAnswer(answer: Exchange): TokenResult {
  const fail = (reason: TokenFailure['reason'], httpStatus?: number): TokenResult => ({
    ok: false,
    failure: { kind: 'token-failed', reason, ...(httpStatus === undefined ? {} : { httpStatus }) },
  });
  if (answer.kind !== 'answer') return fail(answer.kind);
  if (!isOk(answer.status)) return fail('refused', answer.status);
  const json = parseJson(answer.text);
  if (!isRecord(json) || json.status !== 'SUCCESS' || !isRecord(json.data)) return fail('unreadable', answer.status);
  const wrapper = valueOf(json.data, /^encryp?tedseckey$/i);
  const token = isRecord(wrapper) ? valueOf(wrapper, /^encryptedkey$/i) : undefined;
  if (typeof token !== 'string' || token.trim() === '') return fail('unreadable', answer.status);
  return { ok: true, token: token.trim() };
}

function valueOf(record: Record<string, unknown>, name: RegExp): unknown {
  return Object.entries(record).find(([key]) => name.test(key))?.[1];
}

// ─── reading the gateway's answers ───────────────────────────────────────────────────────────────

/** The initiation's answer (spec 2.2–2.4, companion §4) as an outcome. */
function readInitiation(answer: Exchange, paymentType: PaymentType): GatewayOutcome {
  if (answer.kind !== 'answer') return answer;
  const httpStatus = answer.status;
  const json = parseJson(answer.text);
  const message = gatewayMessage(json);

  if (httpStatus === 402) return { kind: 'declined', httpStatus, message };
  if (!isOk(httpStatus)) {
    return isDuplicateReference(httpStatus, json, message)
      ? { kind: 'duplicate-reference', httpStatus, message }
      : { kind: 'http-error', httpStatus, message };
  }
  if (json === undefined) return { kind: 'unreadable', httpStatus };
  const read = readEnvelope(json, paymentType);
  if (read.ok) return { kind: 'success', httpStatus, envelope: checkedEnvelope(json, paymentType) };
  if (isDuplicateReference(httpStatus, json, message)) return { kind: 'duplicate-reference', httpStatus, message };
  if (read.reason === 'not-success') {
    const status = String((json as { status: string }).status);
    return FINAL_FAILURE.test(status.trim())
      ? { kind: 'declined', httpStatus, message }
      : { kind: 'unconfirmed', httpStatus, status: status.slice(0, 40), message };
  }
  if (read.reason === 'missing-fields') return { kind: 'missing-fields', httpStatus, message };
  return { kind: 'unreadable', httpStatus };
}

/**
 * §4: 200 + `S18`; 200 + `S12` saying the reference must be unique; `S14`; HTTP 500 (or 409)
 * "Transaction with reference exists"; HTTP 400 `status: "ERROR"` + `S12` "Duplicate transaction reference".
 */
function isDuplicateReference(httpStatus: number, json: unknown, message: string | undefined): boolean {
  const data = isRecord(json) && isRecord(json.data) ? json.data : {};
  const code = typeof data.code === 'string' ? data.code.trim().toUpperCase() : '';
  const text = message ?? '';
  if (httpStatus === 500 || httpStatus === 409) return /reference exists/i.test(text);
  if (code === 'S14') return isOk(httpStatus) || httpStatus === 400;
  if (httpStatus === 400) return code === 'S12' && /duplicate/i.test(text);
  return isOk(httpStatus) && (code === 'S18' || (code === 'S12' && /must be unique/i.test(text)));
}

/** Called once `readEnvelope` accepted `json`: `data.payments` holds every field the type needs. */
function checkedEnvelope(json: unknown, paymentType: PaymentType): CheckedEnvelope {
  const data = (json as { data: { code?: unknown; message?: unknown; payments: Record<string, string> } }).data;
  const fields = Object.keys(PAYMENTS_PATTERNS[paymentType]);
  return {
    status: 'SUCCESS',
    data: {
      code: typeof data.code === 'string' ? data.code : null,
      message: typeof data.message === 'string' ? data.message : null,
      payments: Object.fromEntries(fields.map((field) => [field, data.payments[field]!])),
    },
  };
}

/** The envelope's strings without the token or a key: the gateway's answer may echo anything it was sent. */
export function redactEnvelope(envelope: CheckedEnvelope, redact: (text: string) => string): CheckedEnvelope {
  const { code, message, payments } = envelope.data;
  return {
    status: envelope.status,
    data: {
      code: code === null ? null : redact(code),
      message: message === null ? null : redact(message),
      payments: Object.fromEntries(Object.entries(payments).map(([field, value]) => [field, redact(value)])),
    },
  };
}

/** The query's answer (§2): only a readable 2xx `SUCCESS` envelope about this reference is an answer. */
function readQueryAnswer(answer: Exchange, paymentReference: string): QueryOutcome {
  if (answer.kind !== 'answer') return { kind: 'unverified', reason: answer.kind };
  const httpStatus = answer.status;
  if (!isOk(httpStatus)) return { kind: 'unverified', reason: 'http-error', httpStatus };
  const json = parseJson(answer.text);
  if (!isRecord(json) || json.status !== 'SUCCESS' || !isRecord(json.data)) {
    return { kind: 'unverified', reason: 'unreadable', httpStatus };
  }
  const data = json.data;
  const payments = isRecord(data.payments) ? data.payments : {};
  const reference = payments.paymentReference;
  if (typeof reference === 'string' && reference !== '' && reference !== paymentReference) {
    return { kind: 'unverified', reason: 'other-reference', httpStatus };
  }
  const code = typeof data.code === 'string' ? data.code.trim() : '';
  const breakdown = isRecord(payments.paymentBreakdown) ? payments.paymentBreakdown : {};
  return {
    kind: 'answer',
    ...paymentStateOf(code),
    code,
    amount: amountOf(breakdown.amount) ?? amountOf(payments.amount),
    currency: typeof payments.currency === 'string' ? payments.currency.trim() : undefined,
    message: typeof data.message === 'string' ? data.message.trim().slice(0, MAX_RAW_MESSAGE) : undefined,
  };
}

const PENDING_CODES = new Set(['S20', 'SM_P', 'S0', 'SM_09', 'INP', 'INP2', 'SM_D']);
const FAILED_CODES = new Set(['S12', 'S12-15', 'X23', 'SM_X23']);
const REPORTED_PENDING: Record<string, QueryAnswer['report']> = { S404: 'no-data', S7: 'generic-error', SM_10: 'partial-amount' };

/**
 * §2's table: `00` is paid; the pending and in-progress codes wait; `S12`, its `SM_…` details and the
 * expiry codes failed. `SM_10` (approved for part of the amount) is never paid. Anything else waits
 * and is reported, as the gateway's docs say to treat an unrecognised code as unpaid.
 */
export function paymentStateOf(code: string): Pick<QueryAnswer, 'state' | 'report'> {
  if (code === '00') return { state: 'SUCCESS' };
  if (PENDING_CODES.has(code)) return { state: 'PENDING' };
  const report = REPORTED_PENDING[code];
  if (report) return { state: 'PENDING', report };
  if (FAILED_CODES.has(code) || code.startsWith('SM_')) return { state: 'FAILED' };
  return { state: 'PENDING', report: 'unknown-code' };
}

/** A JSON number or a numeric string (`"5000.00"`); anything else is no amount. */
function amountOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

// ─── one request ─────────────────────────────────────────────────────────────────────────────────

/** What came back from one request, before it is read: the status and text, or why there is none. */
export type Exchange =
  | { kind: 'answer'; status: number; text: string }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string };

/** Subscribes `abort` to whatever may end a call early; returns the unsubscribe. */
export type AbortSubscription = (abort: () => void) => () => void;

/**
 * One request with a time-out that also covers a body that trickles in. Redirects are not followed:
 * one would carry the token or the customer's details to another address.
 */
async function exchange(
  fetchFn: typeof globalThis.fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  onAbort?: AbortSubscription,
): Promise<Exchange> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, timeoutMs);
  const unsubscribe = onAbort?.(abort);
  try {
    const response = await fetchFn(url, { ...init, redirect: 'manual', signal: controller.signal });
    return { kind: 'answer', status: response.status, text: await response.text() };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'timeout' };
    return { kind: 'unreachable', reason: describeNetworkError(error) };
  } finally {
    clearTimeout(timer);
    unsubscribe?.();
  }
}

function subscribe(signal: AbortSignal): AbortSubscription {
  return (abort) => {
    if (signal.aborted) {
      abort();
      return () => {};
    }
    signal.addEventListener('abort', abort, { once: true });
    return () => signal.removeEventListener('abort', abort);
  };
}

/** Waits for a shared request without letting one caller's abort end it for the others. */
function untilAborted(promise: Promise<TokenResult>, signal: AbortSignal | undefined): Promise<TokenResult> {
  if (!signal) return promise;
  const timedOut: TokenResult = { ok: false, failure: { kind: 'token-failed', reason: 'timeout' } };
  if (signal.aborted) return Promise.resolve(timedOut);
  return new Promise((resolve) => {
    const stop = () => resolve(timedOut);
    signal.addEventListener('abort', stop, { once: true });
    void promise.then((result) => {
      signal.removeEventListener('abort', stop);
      resolve(result);
    });
  });
}

function jsonHeaders(token: string): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` };
}

function httpStatusOf(failure: TokenFailure): { httpStatus?: number } {
  return failure.httpStatus === undefined ? {} : { httpStatus: failure.httpStatus };
}

function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

/** §4: `data.message`, then `message`, then `error` (a string, or an object's `message`). */
function gatewayMessage(json: unknown): string | undefined {
  if (!isRecord(json)) return undefined;
  const body = json as { data?: { message?: unknown }; message?: unknown; error?: unknown };
  const error = body.error as { message?: unknown } | string | undefined;
  const candidates = [body.data?.message, body.message, typeof error === 'string' ? error : error?.message];
  const found = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return found?.trim().slice(0, MAX_RAW_MESSAGE);
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'unknown';
}

function assertOptions(options: GatewayOptions): void {
  const fail = (problem: string) => {
    throw new TypeError(`createGateway: ${problem}`);
  };
  if (!options || typeof options.baseUrl !== 'string' || !URL.canParse(options.baseUrl)) fail('baseUrl must be an absolute URL');
  if (typeof options.publicKey !== 'string' || options.publicKey === '') fail('publicKey is required');
  const hasSecret = options.secretKey !== undefined;
  const hasToken = options.accessToken !== undefined;
  if (hasSecret === hasToken) fail('give either secretKey or accessToken');
  if (hasSecret && (typeof options.secretKey !== 'string' || options.secretKey === '')) fail('secretKey must be a non-empty string');
  if (hasToken && !(typeof options.accessToken === 'function' || (typeof options.accessToken === 'string' && options.accessToken !== ''))) {
    fail('accessToken must be a non-empty string or a function');
  }
  if (options.queryVersion !== undefined && !QUERY_VERSIONS.includes(options.queryVersion)) fail("queryVersion must be 'v2' or 'v3'");
  const timeout = options.timeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)) {
    fail('timeoutMs must be a positive finite number');
  }
}

/**
 * The spec's request (2.1): customer fields from the widget, money and references from the server's
 * order, `bankCode` for USSD only.
 */
export function buildGatewayRequest(request: SessionRequest, order: ResolvedOrder, publicKey: string): GatewayRequest {
  const body: GatewayRequest = {
    publicKey,
    amount: order.amount,
    fullName: request.fullName,
    mobileNumber: request.mobileNumber,
    email: request.email,
    currency: order.currency,
    country: order.country,
    paymentReference: order.paymentReference,
    callbackUrl: order.callbackUrl,
    redirectUrl: order.redirectUrl,
    paymentType: request.paymentType,
  };
  if (request.paymentType === 'USSD') body.bankCode = request.bankCode;
  return body;
}
