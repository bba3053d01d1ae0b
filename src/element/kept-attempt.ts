// The attempt kept in `sessionStorage` once the gateway gave its instructions, so that a reload, a
// discarded tab or an app switch can show it again (resume.ts): the idempotency key, the
// instructions, the server's order (reference, amount, status token, expiry), when the account runs
// out on the phone's clock, and once known how it ended. Of the customer, only the payment type and
// the bank picked for USSD, which the screen names: no name, e-mail or number. Storage that throws
// (blocked, private browsing, a full quota) keeps nothing and says nothing: the widget works as
// before, without resume. Part of what runs after a submit.
import type { PaymentStatus, StatusReview } from '../contract/rules.js';
import type { Instructions, Order, PaymentType } from '../contract/schemas.js';

export type KeptAttempt = {
  /** The attempt's `Idempotency-Key`. */
  key: string;
  request: { paymentType: PaymentType; bankCode?: string | undefined };
  instructions: Instructions;
  order: Order | undefined;
  /** When the transfer account runs out, on the phone's clock (`Date.now()` + the server's time left when it arrived). */
  runsOutAt?: number | undefined;
  /** When it was kept, on the phone's clock. */
  keptAt: number;
  /** How it ended, once `status-url` said (PENDING only with a `review`, for a person at the shop). */
  status?: PaymentStatus | undefined;
  message?: string | undefined;
  review?: StatusReview | undefined;
};

/** An attempt is dropped this long after its account ran out (or, without one, after it was kept): the status polling has given up by then. */
export const KEPT_FOR_MS = 30 * 60_000;

/** `sessionStorage`, or undefined where reading the property itself throws (storage blocked). */
function storage(): Storage | undefined {
  try {
    return sessionStorage;
  } catch {
    return undefined;
  }
}

export function keepAttempt(name: string, attempt: KeptAttempt): void {
  try {
    storage()?.setItem(name, JSON.stringify(attempt));
  } catch {
    // Refused or full: nothing is kept, and a reload shows the form as before.
  }
}

export function forgetAttempt(name: string): void {
  try {
    storage()?.removeItem(name);
  } catch {
    // Nothing could be kept either.
  }
}

/** The attempt kept under `name`, unless there is none, it is unreadable or it is long over (then it is dropped). */
export function recallAttempt(name: string, now = Date.now()): KeptAttempt | undefined {
  let kept: Partial<KeptAttempt> | null = null;
  try {
    const text = storage()?.getItem(name);
    if (!text) return undefined;
    kept = JSON.parse(text);
  } catch {
    // Unreadable (or storage refused): dropped below.
  }
  if (isAttempt(kept) && now - (kept.runsOutAt ?? kept.keptAt) < KEPT_FOR_MS) return kept;
  forgetAttempt(name);
  return undefined;
}

/** Enough of the shape to show the screen: what was kept by this code, not what another script left. */
function isAttempt(kept: Partial<KeptAttempt> | null): kept is KeptAttempt {
  const instructions = kept?.instructions as Partial<Record<string, unknown>> | undefined;
  const shown = instructions?.paymentType === 'USSD' ? instructions.ussdDialCode : instructions?.accountNumber;
  return (
    typeof kept?.key === 'string' &&
    typeof kept.keptAt === 'number' &&
    typeof instructions?.paymentReference === 'string' &&
    typeof shown === 'string' &&
    kept.request?.paymentType === instructions.paymentType
  );
}
