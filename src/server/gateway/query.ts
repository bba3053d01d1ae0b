// The payment query (docs/architecture.md, "The query"): the path and its version, and the answer read
// into the ledger's terms. Only a readable 2xx `SUCCESS` envelope naming this reference is an answer.
import { queryPath, type QueryVersion } from '../../contract/gateway-paths.js';
import { isRecord, parseJson } from '../../contract/json.js';
import { paymentStateOf } from './codes.js';
import { isOk, jsonHeaders, MAX_RAW_MESSAGE, type Exchange, type Send } from './exchange.js';
import type { AuthorisedCall } from './token.js';
import type { QueryOutcome } from './types.js';

type QueryParts = {
  baseUrl: string;
  send: Send;
  authorised: <T>(call: AuthorisedCall<T>) => Promise<T>;
  /** The token, the keys and anything after `Bearer `, out of the gateway's words. */
  redact: (text: string) => string;
  /** The version asked first, and the one asked once when it answers 404. */
  primary: QueryVersion;
  fallback: QueryVersion;
};

/** `Gateway.query`: asks about `paymentReference`; after a 401, asks once more with a renewed token. */
export function paymentQuery({ baseUrl, send, authorised, redact, primary, fallback }: QueryParts) {
  return async (paymentReference: string, signal: AbortSignal | undefined): Promise<QueryOutcome> => {
    const paths = { v2: queryPath('v2', paymentReference), v3: queryPath('v3', paymentReference) };
    if (paths.v2 === undefined || paths.v3 === undefined) return { kind: 'unverified', reason: 'bad-reference' };
    const ask = async (token: string, version: QueryVersion) =>
      send(baseUrl + paths[version], { method: 'GET', headers: jsonHeaders(token) }, signal);
    const outcome = await authorised<QueryOutcome>({
      call: async (token) => {
        let answer = await ask(token, primary);
        // A 404 names a path this gateway does not serve, not a payment's fate.
        if (answer.kind === 'answer' && answer.status === 404 && !signal?.aborted) answer = await ask(token, fallback);
        return readQueryAnswer(answer, paymentReference, redact);
      },
      unauthorised: (outcome) => outcome.kind === 'unverified' && outcome.httpStatus === 401,
      signal,
      failed: (failure) => ({
        kind: 'unverified',
        reason: failure.reason,
        ...(failure.httpStatus === undefined ? {} : { httpStatus: failure.httpStatus }),
      }),
    });
    return outcome;
  };
}

/** The answer as the ledger's terms; its strings `redact`ed (before shortening): it may echo anything it was sent. */
function readQueryAnswer(answer: Exchange, paymentReference: string, redact: (text: string) => string): QueryOutcome {
  if (answer.kind !== 'answer') return { kind: 'unverified', reason: answer.kind };
  const httpStatus = answer.status;
  const json = parseJson(answer.text);
  if (!isOk(httpStatus))
    return { kind: 'unverified', reason: saysNotFound(json) ? 'not-found' : 'http-error', httpStatus };
  if (!isRecord(json) || json.status !== 'SUCCESS' || !isRecord(json.data)) {
    return { kind: 'unverified', reason: 'unreadable', httpStatus };
  }
  const data = json.data;
  const payments = isRecord(data.payments) ? data.payments : {};
  // An answer that does not name the reference asked about is about something else: a path the
  // URL resolved elsewhere (a list, another payment), never this payment's fate.
  if (payments.paymentReference !== paymentReference)
    return { kind: 'unverified', reason: 'other-reference', httpStatus };
  const code = typeof data.code === 'string' ? data.code.trim() : '';
  return {
    kind: 'answer',
    ...paymentStateOf(code),
    code: redact(code),
    amount: agreedAmount(payments),
    currency: typeof payments.currency === 'string' ? redact(payments.currency.trim()) : undefined,
    message: typeof data.message === 'string' ? redact(data.message.trim()).slice(0, MAX_RAW_MESSAGE) : undefined,
  };
}

/** §2: the gateway's `{ message: "No transaction found", error: "PROCESSING" }` (a 500) for a reference it does not know. */
function saysNotFound(json: unknown): boolean {
  return isRecord(json) && typeof json.message === 'string' && /^\s*no transaction found/i.test(json.message);
}

/**
 * §2: `paymentBreakdown.amount` when present (`payments.amount` may be the total with the fee), else
 * `payments.amount`. When both are there they must agree: `payments.amount` is the breakdown's amount,
 * or that plus its fee. Otherwise there is no amount, so the ledger's amount never matches and a
 * paid code is an amount mismatch: which figure was charged is unknown.
 */
function agreedAmount(payments: Record<string, unknown>): number | undefined {
  const breakdown = isRecord(payments.paymentBreakdown) ? payments.paymentBreakdown : {};
  const ordered = amountOf(breakdown.amount);
  const charged = amountOf(payments.amount);
  if (ordered === undefined || charged === undefined) return ordered ?? charged;
  const fee = amountOf(breakdown.fee) ?? amountOf(payments.fee) ?? 0;
  return sameFigure(charged, ordered) || sameFigure(charged, ordered + fee) ? ordered : undefined;
}

/** Equal once rounded to a millionth: `10 + 0.15` is `10.15` as the gateway means it. */
function sameFigure(a: number, b: number): boolean {
  return Math.abs(a - b) < 1e-6;
}

/** A JSON number or a numeric string (`"5000.00"`); anything else is no amount. */
function amountOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}
