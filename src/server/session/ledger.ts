// The payment's ledger entry around its initiation: found by the attempt's Idempotency-Key (or by
// its reference) or written `asking` before the gateway is asked, then moved by the gateway's answer.
import type { PaymentType } from '../../contract/schemas.js';
import { sameAmount, sameCurrency } from '../ledger/amounts.js';
import type { Reply } from '../http/reply.js';
import type { ResolvedOrder } from './order.js';
import type { Initiation, Payment, PaymentCustomer } from '../ledger/entry.js';
import { createdEntry, moveEntry } from '../ledger/moves.js';
import { writeMove } from '../ledger/write.js';
import type { PaymentStore } from '../stores/types.js';
import type { AttemptProgress } from './deadline.js';
import type { SessionEvent } from './events.js';
import type { SessionReplies } from './replies.js';

/** What the ledger steps need of one request. */
export type LedgerAttempt = {
  payments: PaymentStore;
  /** Its Idempotency-Key; null for a request without one (`requireIdempotencyKey: false`). */
  key: string | null;
  paymentType: PaymentType;
  replies: SessionReplies;
  emit: (event: SessionEvent) => void;
  /** The handler's clock (`now`), ms since the epoch. */
  now: () => number;
  /** TRANSFER: how long the gateway keeps the account open (`walletDaysActive`); absent for USSD. */
  accountLifeMs?: number;
  /** Who pays, kept on the entry for a person's search; never reported. */
  customer?: PaymentCustomer;
};

/**
 * The payment the gateway is asked about; `again` when its reference may have been asked about
 * before (`retry: true`); `inserted`, the entry as this attempt wrote it (version 1), when it did.
 */
export type EnteredPayment = { order: ResolvedOrder; again: boolean; inserted?: Payment };

export type Entered = ({ ok: true } & EnteredPayment) | { ok: false; reply: Reply };

type OrderResult = { ok: true; order: ResolvedOrder } | { ok: false; reply: Reply };

const RECEIVED = 'This payment was already received.';
const ENDED = 'This payment attempt has ended. Please start a new payment.';
const CHANGED = 'This order changed after its payment started.';
/** How many times a lost compare-and-set is read again and retried. */
const UPDATE_TRIES = 3;
const LEDGER_FIELDS = ['paymentReference', 'amount', 'currency'] as const;

/**
 * The ledger entry this attempt asks the gateway about, settled before it is asked. The entry the
 * key started, when the ledger has one, names the payment whatever `resolve` returns, so a lost
 * idempotency record cannot start a second payment. Otherwise the order (`known`, kept by the key,
 * or resolved now) is recorded PENDING and `asking`, due for the reconciler's first look; a
 * reference the ledger already holds is that entry's payment. A ledger that cannot be read or
 * written answers 503 `server_busy`, and the gateway is not asked.
 */
export async function enterPayment(
  attempt: LedgerAttempt,
  known: ResolvedOrder | undefined,
  resolve: () => Promise<OrderResult>,
  progress: AttemptProgress,
): Promise<Entered> {
  const { payments, key } = attempt;
  try {
    progress.stage = 'ledger';
    const byKey = key === null ? undefined : await payments.findByIdempotencyKey(key);
    const resolved: OrderResult = known ? { ok: true, order: known } : await resolve();
    if (!resolved.ok) return resolved;
    const { order } = resolved;
    if (byKey) return reuse(attempt, order, byKey);
    progress.stage = 'ledger';
    // A key's order kept after an unanswered attempt may already be at the gateway.
    const inserted = newEntry(attempt, order);
    if (await payments.insert(inserted)) return { ok: true, order, again: known !== undefined, inserted };
    const held = await payments.get(order.paymentReference);
    if (held && known === undefined && changedFor(order, held, key))
      return { ok: false, reply: orderChanged(attempt, held) };
    const found = held ?? (key === null ? undefined : await payments.findByIdempotencyKey(key));
    if (!found) throw new Error(`the ledger refused ${order.paymentReference} but holds no entry for it`);
    return reuse(attempt, order, found);
  } catch (error) {
    return { ok: false, reply: attempt.replies.busy('ledger', error) };
  }
}

/**
 * A new attempt (another Idempotency-Key, or none) whose order the ledger holds for another amount
 * or currency: the cart changed after its payment started. Only the key that started the entry may
 * ask about it again with the ledger's amount.
 */
function changedFor(order: ResolvedOrder, held: Payment, key: string | null): boolean {
  if (key !== null && held.idempotencyKey === key) return false;
  return !(sameAmount(held.amount, order.amount) && sameCurrency(held.currency, order.currency));
}

/** Refused, never charged: asking the gateway about the held entry would charge the old amount. */
function orderChanged(attempt: LedgerAttempt, held: Payment): Reply {
  attempt.emit({ type: 'order-changed', paymentReference: held.paymentReference });
  return attempt.replies.reject('order_changed', CHANGED);
}

function newEntry(attempt: LedgerAttempt, order: ResolvedOrder): Payment {
  const { key: idempotencyKey, paymentType, accountLifeMs, customer } = attempt;
  const { paymentReference, amount, currency } = order;
  return createdEntry(
    { paymentReference, paymentType, amount, currency, idempotencyKey, accountLifeMs, customer },
    attempt.now(),
  );
}

/**
 * The payment `entry` already records, asked about again with its own reference, amount and
 * currency (the resolver's URLs and country stand); none when it was paid or has ended.
 */
function reuse(attempt: LedgerAttempt, order: ResolvedOrder, entry: Payment): Entered {
  const { replies } = attempt;
  if (entry.state === 'SUCCESS')
    return { ok: false, reply: replies.reject('order_refused', RECEIVED, { status: 409 }) };
  if (entry.state === 'FAILED' || entry.initiation === 'refused' || entry.paymentType !== attempt.paymentType) {
    return { ok: false, reply: replies.reject('order_refused', ENDED) };
  }
  const ignored = LEDGER_FIELDS.filter((field) => order[field] !== entry[field]);
  if (ignored.length > 0)
    attempt.emit({ type: 'replayed-from-ledger', paymentReference: entry.paymentReference, ignored });
  const { paymentReference, amount, currency } = entry;
  return { ok: true, order: { ...order, paymentReference, amount, currency }, again: true };
}

/**
 * Moves the entry by the gateway's answer (`reached`, ledger/moves.ts): a compare-and-set, read
 * again after a lost race. A failure here is reported and changes nothing for the customer: the
 * entry stays due, and the reconciler queries it.
 */
export async function recordAnswer(
  attempt: LedgerAttempt,
  entered: EnteredPayment,
  reached: Initiation,
): Promise<void> {
  const reference = entered.order.paymentReference;
  const time = attempt.now();
  const openUntil = attempt.accountLifeMs === undefined ? undefined : time + attempt.accountLifeMs;
  const event = { type: 'initiation-answered', at: time, reached, again: entered.again, openUntil } as const;
  // The entry this attempt inserted is, unless something moved it meanwhile, what the ledger holds: no read first.
  const from = entered.inserted && moveEntry(entered.inserted, event) ? entered.inserted : reference;
  const tries = from === reference ? UPDATE_TRIES : UPDATE_TRIES + 1;
  const report = (error: unknown) => attempt.replies.report('ledger', error);
  const written = await writeMove(attempt.payments, from, event, { tries, report, onThrow: 'give-up' });
  if (written.kind === 'missing') report(new Error(`the ledger no longer holds ${reference}`));
  if (written.kind === 'gave-up' && written.why !== 'store')
    report(new Error(`${reference} changed ${UPDATE_TRIES} times while its initiation was being recorded`));
}
