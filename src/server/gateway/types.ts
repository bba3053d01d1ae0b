// The outcomes every part of the gateway client speaks: an initiation's, a query's, a token's.
// `../gateway.ts` re-exports them as the public names; they live here so the parts can use them
// without an import circle.
import type { PaymentStatus as PaymentState } from '../../contract/rules.js';

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
 * Why no bearer token could be had. `refused`: `encrypt/keys` answered outside 2xx (`httpStatus`),
 * or the gateway refused a renewed token too and the back-off after it is running (`repeated`);
 * `unreadable`: it answered 2xx without a token; `source-failed`: the `accessToken` function threw
 * or gave no string.
 */
export type TokenFailure = {
  kind: 'token-failed';
  reason: 'refused' | 'unreadable' | 'timeout' | 'unreachable' | 'source-failed';
  httpStatus?: number;
  /**
   * Answered at once during the back-off (`GatewayOptions.refusedBackoffMs`) that follows a refused
   * renewal: nothing was sent, and the refusal was already reported when it came. Report it again
   * only when this is absent, so a broken configuration is reported once per period, not per request.
   */
  repeated?: true;
};

/** What `initiate` ends in: the session handler's outcomes, plus a token that could not be had. */
export type InitiateOutcome = GatewayOutcome | TokenFailure;

/** The query's verdict (§2 "Codes"): `data.code` decides, never the envelope's own `status`. */
export type QueryAnswer = {
  kind: 'answer';
  state: PaymentState;
  /** `data.code` as sent (trimmed); empty when the answer had none. */
  code: string;
  /**
   * `paymentBreakdown.amount` when present (`payments.amount` may include the fee), else
   * `payments.amount`; none when the two disagree (`payments.amount` neither the breakdown's amount
   * nor that plus its fee), so a paid code is then an amount mismatch.
   */
  amount: number | undefined;
  currency: string | undefined;
  /** `data.message`, with the token and keys removed. */
  message: string | undefined;
  /** Set when the code deserves a look: unknown, `S404`, `S7`, or `SM_10` (approved for part of the amount). */
  report?: 'unknown-code' | 'no-data' | 'generic-error' | 'partial-amount';
};

/**
 * Anything that is not a readable answer: the ledger keeps its state (never SUCCESS, never FAILED).
 * `other-reference`: the answer did not name the reference asked about; `bad-reference`: the
 * reference cannot be put in the query's path (empty, `.`, `..`), so nothing was sent;
 * `not-found`: the gateway said it knows no such payment (its 500 "No transaction found"), an
 * answer about the payment (the reconciler's schedule moves on, as for pending) but no verdict.
 */
export type QueryUnverified = {
  kind: 'unverified';
  reason:
    | 'http-error'
    | 'not-found'
    | 'unreadable'
    | 'other-reference'
    | 'bad-reference'
    | 'timeout'
    | 'unreachable'
    | TokenFailure['reason'];
  httpStatus?: number;
};

export type QueryOutcome = QueryAnswer | QueryUnverified;

export type AccessToken = string | (() => string | Promise<string>);
