// Settling is one transition, whichever endpoint learns of it first (a webhook, a status
// re-query): the gateway's verified answer moves the ledger entry `PENDING → SUCCESS | FAILED` with
// one compare-and-set, and only the request whose write lands calls `onPaid` (or `onFailed`). A
// payment is paid only for the ledger's amount and currency. Also the settlement events, and their
// reporting with the gateway's text scrubbed (`scrubbedEmitter`).
import type { Gateway, QueryAnswer, QueryOutcome } from './gateway.js';
import { withDeadline } from './http/deadline.js';
import { createEmitter, errorName } from './http/emitter.js';
import type { Payment, PaymentStore } from './stores.js';

export type PaymentHook = (payment: Payment) => void | Promise<void>;

/** What `onEvent` hears from a settlement: references, codes and amounts, never a token, key or customer detail. */
export type SettleEvent =
  | { type: 'paid'; paymentReference: string; amount: string; currency: string }
  | { type: 'failed'; paymentReference: string; code: string }
  | {
      type: 'amount-mismatch';
      paymentReference: string;
      code: string;
      expected: { amount: string; currency: string };
      received: { amount: number | undefined; currency: string | undefined };
    }
  | { type: 'code-reported'; paymentReference: string; code: string; report: NonNullable<QueryAnswer['report']> }
  | { type: 'internal-error'; where: 'onPaid' | 'onFailed' | 'store'; paymentReference: string; detail: string };

type SettleContext = {
  payments: PaymentStore;
  onPaid: PaymentHook;
  onFailed?: PaymentHook;
  emit: (event: SettleEvent) => void;
  now?: () => number;
};

type SettleResult =
  /** This call's write settled the payment and ran the hook. */
  | { kind: 'settled'; payment: Payment }
  /** Settled before (by another request, instance or path): nothing ran. */
  | { kind: 'already-settled'; payment: Payment }
  /**
   * Still PENDING: `open`, the gateway has not decided; `mismatch`, it answered for another amount or
   * currency (or `SM_10`), which asking again will not change; `busy`, the ledger could not be
   * written (it threw, or kept changing under this request), so asking again later may settle it.
   */
  | { kind: 'pending'; reason: 'open' | 'mismatch' | 'busy'; payment: Payment }
  /** The entry disappeared from the ledger meanwhile. */
  | { kind: 'missing' };

/**
 * What `onEvent` hears when an endpoint asks the gateway about a payment and settles it: the
 * gateway's verdict, then the settlement's events.
 */
export type VerifyEvent =
  | { type: 'verified'; paymentReference: string; state: Payment['state']; code: string }
  /**
   * The query got no readable answer (or none in time): the entry stays as it was. The webhook
   * answers 503 so the gateway delivers again; the status handler asks again next interval.
   */
  | { type: 'unverified'; paymentReference: string; reason: string; httpStatus?: number }
  | SettleEvent;

type VerifyContext = SettleContext & {
  emit: (event: VerifyEvent) => void;
  /** Give up on the query after this long (it then counts as unverified); without it, wait for the gateway's own time-out. */
  queryTimeoutMs?: number;
};

type VerifyResult = SettleResult | { kind: 'unverified' };

/**
 * Asks the gateway what became of `entry` (never trusting whoever told us to look), then settles it
 * through {@link settlePayment}. An unreadable or late answer leaves the ledger untouched.
 */
export async function verifyAndSettle(entry: Payment, gateway: Pick<Gateway, 'query'>, context: VerifyContext): Promise<VerifyResult> {
  const reference = entry.paymentReference;
  const outcome = await queryGateway(gateway, reference, context.queryTimeoutMs);
  if (outcome.kind !== 'answer') {
    context.emit({ type: 'unverified', paymentReference: reference, reason: outcome.reason, ...(outcome.httpStatus ? { httpStatus: outcome.httpStatus } : {}) });
    return { kind: 'unverified' };
  }
  context.emit({ type: 'verified', paymentReference: reference, state: outcome.state, code: outcome.code });
  return settlePayment(entry, outcome, context);
}

/** The gateway's answer, or `timeout` once `timeoutMs` passed, even from a `query` that ignores its signal. */
function queryGateway(gateway: Pick<Gateway, 'query'>, reference: string, timeoutMs: number | undefined): Promise<QueryOutcome> {
  const ask = async (signal?: AbortSignal): Promise<QueryOutcome> => {
    try {
      return await (signal ? gateway.query(reference, { signal }) : gateway.query(reference));
    } catch {
      return { kind: 'unverified', reason: 'unreadable' };
    }
  };
  if (timeoutMs === undefined) return ask();
  return withDeadline<QueryOutcome>(
    timeoutMs,
    (flag) => ask(flag.signal),
    () => ({ kind: 'unverified', reason: 'timeout' }),
  );
}

/** A busy entry is re-read this often before giving up; giving up leaves it PENDING for the next try. */
const MAX_ATTEMPTS = 8;

/** Moves `entry` as `answer` says, with one compare-and-set; re-reads and retries a write that lost to a mere check. */
export async function settlePayment(entry: Payment, answer: QueryAnswer, context: SettleContext): Promise<SettleResult> {
  const now = context.now ?? Date.now;
  const reference = entry.paymentReference;
  if (answer.report) context.emit({ type: 'code-reported', paymentReference: reference, code: answer.code, report: answer.report });

  const target = targetState(entry, answer);
  if (target === 'mismatch') {
    context.emit({
      type: 'amount-mismatch',
      paymentReference: reference,
      code: answer.code,
      expected: { amount: entry.amount, currency: entry.currency },
      received: { amount: answer.amount, currency: answer.currency },
    });
  }

  const unsettled = (reason: 'open' | 'mismatch' | 'busy', payment: Payment): SettleResult => ({ kind: 'pending', reason, payment });
  const undecided = target === 'mismatch' ? 'mismatch' : 'open';
  let current = entry;
  for (let attempt = 1; ; attempt += 1) {
    if (current.state !== 'PENDING') return { kind: 'already-settled', payment: current };
    const time = now();
    const next: Payment = {
      ...current,
      state: target === 'mismatch' ? 'PENDING' : target,
      checkedAt: time,
      gatewayCode: answer.code,
      ...(target === 'SUCCESS' || target === 'FAILED' ? { updatedAt: time } : {}),
    };
    let written: boolean;
    try {
      written = await context.payments.update(next);
    } catch (error) {
      context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) });
      return unsettled('busy', current);
    }
    if (written) {
      const stored = { ...next, version: current.version + 1 };
      if (stored.state === 'PENDING') return unsettled(undecided, stored);
      await runHook(stored, context);
      return { kind: 'settled', payment: stored };
    }
    // A lost race matters only to a write that would settle the payment: a mere record of this
    // check (still PENDING) may lose to whoever wrote meanwhile.
    if (next.state === 'PENDING') return unsettled(undecided, current);
    if (attempt === MAX_ATTEMPTS) return unsettled('busy', current);
    let reread: Payment | undefined;
    try {
      reread = await context.payments.get(reference);
    } catch (error) {
      context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) });
      return unsettled('busy', current);
    }
    if (!reread) return { kind: 'missing' };
    current = reread;
  }
}

/** The ledger state the answer earns; a paid answer for another amount or currency earns none. */
function targetState(entry: Payment, answer: QueryAnswer): 'PENDING' | 'SUCCESS' | 'FAILED' | 'mismatch' {
  if (answer.report === 'partial-amount') return 'mismatch';
  if (answer.state !== 'SUCCESS') return answer.state;
  const sameCurrency = answer.currency !== undefined && answer.currency.toUpperCase() === entry.currency.trim().toUpperCase();
  return sameCurrency && sameAmount(entry.amount, answer.amount) ? 'SUCCESS' : 'mismatch';
}

/** Compares as exact decimals, so `"5000.00"` equals `5000` and `10.15` equals `"10.150"`. */
function sameAmount(ledger: string, gateway: number | string | undefined): boolean {
  if (gateway === undefined) return false;
  const a = canonicalDecimal(ledger);
  return a !== undefined && a === canonicalDecimal(String(gateway));
}

function canonicalDecimal(text: string): string | undefined {
  const match = /^\s*0*(\d*?)(?:\.(\d*?)0*)?\s*$/.exec(text);
  if (!match || !/\d/.test(text)) return undefined;
  const whole = match[1] || '0';
  const fraction = match[2] ?? '';
  return fraction ? `${whole}.${fraction}` : whole;
}

async function runHook(payment: Payment, context: SettleContext): Promise<void> {
  const paid = payment.state === 'SUCCESS';
  if (paid) context.emit({ type: 'paid', paymentReference: payment.paymentReference, amount: payment.amount, currency: payment.currency });
  else context.emit({ type: 'failed', paymentReference: payment.paymentReference, code: payment.gatewayCode ?? '' });
  const hook = paid ? context.onPaid : context.onFailed;
  try {
    await hook?.(structuredClone(payment));
  } catch (error) {
    // The ledger has moved and will not move again: the hook's failure is the merchant's to act on.
    context.emit({ type: 'internal-error', where: paid ? 'onPaid' : 'onFailed', paymentReference: payment.paymentReference, detail: errorName(error) });
  }
}
