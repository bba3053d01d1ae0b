// The payment's ledger entry around its initiation: found by the attempt's Idempotency-Key (or by
// its reference) or written `asking` before the gateway is asked, then moved by the gateway's answer.
import type { PaymentType } from '../../contract/schemas.js';
import type { Reply } from '../http/reply.js';
import type { ResolvedOrder } from '../order.js';
import { nextCheckAt } from '../schedule.js';
import type { Initiation, Payment, PaymentStore } from '../stores/types.js';
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
    const held = (await payments.get(order.paymentReference)) ?? (key === null ? undefined : await payments.findByIdempotencyKey(key));
    if (!held) throw new Error(`the ledger refused ${order.paymentReference} but holds no entry for it`);
    return reuse(attempt, order, held);
  } catch (error) {
    return { ok: false, reply: attempt.replies.busy('ledger', error) };
  }
}

function newEntry(attempt: LedgerAttempt, order: ResolvedOrder): Payment {
  const time = Date.now();
  return {
    paymentReference: order.paymentReference,
    paymentType: attempt.paymentType,
    amount: order.amount,
    currency: order.currency,
    state: 'PENDING',
    version: 1,
    createdAt: time,
    updatedAt: time,
    ...(attempt.key === null ? {} : { idempotencyKey: attempt.key }),
    initiation: 'asking',
    // The reconciler's first look, should nothing else settle it.
    dueAt: nextCheckAt(time, 0),
  };
}

/**
 * The payment `entry` already records, asked about again with its own reference, amount and
 * currency (the resolver's URLs and country stand); none when it was paid or has ended.
 */
function reuse(attempt: LedgerAttempt, order: ResolvedOrder, entry: Payment): Entered {
  const { replies } = attempt;
  if (entry.state === 'SUCCESS') return { ok: false, reply: replies.reject('order_refused', RECEIVED, { status: 409 }) };
  if (entry.state === 'FAILED' || entry.initiation === 'refused' || entry.paymentType !== attempt.paymentType) {
    return { ok: false, reply: replies.reject('order_refused', ENDED) };
  }
  const ignored = LEDGER_FIELDS.filter((field) => order[field] !== entry[field]);
  if (ignored.length > 0) attempt.emit({ type: 'replayed-from-ledger', paymentReference: entry.paymentReference, ignored });
  const { paymentReference, amount, currency } = entry;
  return { ok: true, order: { ...order, paymentReference, amount, currency }, again: true };
}

/**
 * Moves the entry by the gateway's answer (`reached`): a compare-and-set, read again after a lost
 * race. A failure here is reported and changes nothing for the customer: the entry stays due, and
 * the reconciler queries it.
 */
export async function recordAnswer(attempt: LedgerAttempt, entered: EnteredPayment, reached: Initiation): Promise<void> {
  const reference = entered.order.paymentReference;
  try {
    // The entry this attempt inserted is, unless something moved it meanwhile, what the ledger holds: no read first.
    const unread = entered.inserted && moved(entered.inserted, reached, entered.again);
    if (unread && (await attempt.payments.update(unread))) return;
    for (let tries = 0; tries < UPDATE_TRIES; tries += 1) {
      const entry = await attempt.payments.get(reference);
      if (!entry) throw new Error(`the ledger no longer holds ${reference}`);
      const next = moved(entry, reached, entered.again);
      if (!next || (await attempt.payments.update(next))) return;
    }
    throw new Error(`${reference} changed ${UPDATE_TRIES} times while its initiation was being recorded`);
  } catch (error) {
    attempt.replies.report('ledger', error);
  }
}

/**
 * Only forward: a settled entry and instructions once given stand. A refusal after an ask that may
 * have reached the gateway (`again`, or an entry already `unknown`) leaves it unknown, for the query
 * to decide; a refusal of the first ask takes it off the reconciler's sweep.
 */
function moved(entry: Payment, reached: Initiation, again: boolean): Payment | undefined {
  const from = entry.initiation ?? 'started';
  if (entry.state !== 'PENDING' || from === 'started' || from === 'refused') return undefined;
  const to = reached === 'refused' && (again || from !== 'asking') ? 'unknown' : reached;
  if (to === from) return undefined;
  const next: Payment = { ...entry, initiation: to, updatedAt: Date.now() };
  if (to === 'refused') delete next.dueAt;
  return next;
}
