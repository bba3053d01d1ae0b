// What one notification item earns. The item only names a reference: the handler finds its ledger
// entry and, at most once per reference per interval, claims, asks the gateway and settles it
// (settlement/claim-and-verify.ts, the status handler's re-query too), so one query is made per
// interval across every notification, poll and instance; the others answer from the last verdict or
// the ledger. An entry the query budget or the gateway left unverified is made due for the
// reconciler's next sweep. A reference the ledger does not hold is verified alike (unknown.ts).
import type { Gateway } from '../gateway/gateway.js';
import { withDeadline } from '../http/deadline.js';
import { errorName } from '../http/emitter.js';
import { fulfil, fulfilmentFree, owesFulfilment } from '../fulfilment/fulfil.js';
import { claimAndVerify } from '../settlement/claim-and-verify.js';
import type { PaymentHook, VerifyResult } from '../settlement/settle.js';
import type { Payment } from '../ledger/entry.js';
import { writeMove } from '../ledger/write.js';
import type { PaymentStore } from '../stores/types.js';
import type { WebhookEvent } from './events.js';
import type { Notification } from './notification.js';
import type { QueryAllowance, Verdict, VerdictMemory } from './throttle.js';
import { createUnknownReferenceCheck, queryLimit } from './unknown.js';

type CheckOptions = {
  gateway: Pick<Gateway, 'query'>;
  payments: PaymentStore;
  onPaid: PaymentHook;
  onFailed: PaymentHook | undefined;
  emit: (event: WebhookEvent) => void;
  memory: VerdictMemory;
  verifyTimeoutMs: number;
  requeryAfterMs: number;
  leaseMs: number | undefined;
  onPaidTimeoutMs: number | undefined;
  now: () => number;
};

/**
 * How long a delivery waits for `onPaid` before it is answered 503 while `onPaid` goes on: the
 * gateway gives up on an answer after 5 s, and a held-up answer holds a connection for nothing.
 * The gateway delivers again; once `onPaid` returned, that delivery is answered 200.
 */
const FULFIL_WAIT_MS = 1_000;

/** The first of `candidates` the ledger holds. */
async function findEntry(payments: PaymentStore, candidates: string[]): Promise<Payment | undefined> {
  for (const candidate of candidates) {
    const entry = await payments.get(candidate);
    if (entry) return entry;
  }
  return undefined;
}

/**
 * The notification could not be verified now (the query budget was spent, the gateway gave no
 * answer): the entry is made due for the reconciler's next sweep, which asks the gateway, so a
 * real notification drowned among fake ones waits one sweep at most. Not waited for: the answer
 * takes as long as for a reference the ledger does not hold.
 */
function dueForSweep(entry: Payment, { payments, emit, now }: CheckOptions): void {
  const time = now();
  if (entry.dueAt !== undefined && entry.dueAt <= time) return;
  const report = (error: unknown) =>
    emit({
      type: 'internal-error',
      where: 'store',
      paymentReference: entry.paymentReference,
      detail: errorName(error),
    });
  const mark = async () =>
    payments.markDue
      ? payments.markDue(entry.paymentReference, time)
      : writeMove(payments, entry, { type: 'marked-due', at: time }, { tries: 1, report });
  mark().catch(report);
}

/**
 * One notification's verdict: `done` (answered 200) once the payment is paid (and fulfilled) or
 * failed, `retry` (503) while the gateway's answer could not be read, the payment is still open, or
 * `onPaid` has not yet returned, whether the ledger holds the reference or not.
 */
export function createNotificationChecker(
  options: CheckOptions,
): (notification: Notification, allow: QueryAllowance) => Promise<Verdict> {
  const { payments, emit, memory, now } = options;
  const checkUnknown = createUnknownReferenceCheck(options);
  const fulfilOwed = createOwedFulfilment(options);

  function isDue(entry: Payment): boolean {
    return entry.checkedAt === undefined || now() - entry.checkedAt >= options.requeryAfterMs;
  }

  /** Within the interval: the verdict this process reached last, else what the ledger says. */
  function lastVerdict(entry: Payment): Verdict {
    return memory.recent(entry.paymentReference) ?? ledgerVerdict(entry);
  }

  /**
   * Claims this interval's query for `entry` (here or on another instance), then asks the gateway,
   * within the budget a reference the ledger does not hold takes from too.
   */
  async function checkEntry(entry: Payment, notification: Notification, allow: QueryAllowance): Promise<Verdict> {
    if (!isDue(entry)) return lastVerdict(entry);
    if (!allow()) {
      dueForSweep(entry, options);
      return queryLimit(emit, notification, entry.paymentReference);
    }
    const { gateway, onPaid, onFailed, verifyTimeoutMs, leaseMs, onPaidTimeoutMs } = options;
    const settling = {
      payments,
      onPaid,
      onFailed,
      emit,
      now,
      leaseMs,
      onPaidTimeoutMs,
      fulfilWaitMs: FULFIL_WAIT_MS,
      queryTimeoutMs: verifyTimeoutMs,
    };
    const asked = await claimAndVerify(entry, gateway, settling);
    if (asked.kind === 'taken') return lastVerdict(entry); // another request asks this time
    if (asked.kind === 'store-failed') return 'retry';
    const verdict = verdictOf(asked.claimed, asked.result);
    memory.remember(entry.paymentReference, verdict);
    return verdict;
  }

  /** What the gateway's answer means for the delivery: settled (200), or to be delivered again (503). */
  function verdictOf(entry: Payment, result: VerifyResult): Verdict {
    if (result.kind === 'unverified') dueForSweep(entry, options);
    if (result.kind === 'unverified' || result.kind === 'missing') return 'retry';
    if (result.kind === 'already-settled') {
      emit({ type: 'already-settled', paymentReference: entry.paymentReference, state: result.payment.state });
    }
    // The gateway notifies when a payment resolves, and its query may lag behind: while the payment
    // stays open (or the ledger could not be written), the notification is asked for again (503).
    // A mismatch will not change by asking again.
    if (result.kind === 'pending') return result.reason === 'mismatch' ? 'done' : 'retry';
    return ledgerVerdict(result.payment);
  }

  return async (notification, allow) => {
    const entry = await findEntry(payments, notification.candidates);
    if (!entry) return checkUnknown(notification, allow);
    if (entry.state === 'SUCCESS' && !owesFulfilment(entry)) {
      emit({ type: 'already-settled', paymentReference: entry.paymentReference, state: entry.state });
      return 'done';
    }
    // PENDING; FAILED, which a later verified payment turns into a late success; paid with `onPaid`
    // still owed. The check is shared from before its first await, so every notification arriving
    // meanwhile gets its verdict.
    return memory.share(entry.paymentReference, () =>
      owesFulfilment(entry) ? fulfilOwed(entry) : checkEntry(entry, notification, allow),
    );
  };
}

/**
 * Verified paid with `onPaid` still owed: the gateway has nothing left to say, so it is not asked.
 * `onPaid` runs when due (its back-off passed, no live lease), waited for at most FULFIL_WAIT_MS;
 * nothing is written that would wait for a fulfilment under way (on PostgreSQL, for its row lock).
 */
function createOwedFulfilment(options: CheckOptions): (entry: Payment) => Promise<Verdict> {
  const { payments, onPaid, emit, now, leaseMs, onPaidTimeoutMs } = options;
  return async (entry) => {
    const time = now();
    if (!fulfilmentFree(entry, time) || (entry.dueAt !== undefined && entry.dueAt > time)) return 'retry';
    const running = fulfil(entry, { payments, onPaid, emit, now, leaseMs, onPaidTimeoutMs }).then(
      (result) => result.payment,
    );
    return ledgerVerdict(
      await withDeadline(
        FULFIL_WAIT_MS,
        () => running,
        () => entry,
      ),
    );
  };
}

/** What the ledger's entry alone earns: paid and fulfilled, or failed, is done; anything else is asked for again. */
function ledgerVerdict(entry: Payment): Verdict {
  if (entry.state === 'SUCCESS') return owesFulfilment(entry) ? 'retry' : 'done';
  return entry.state === 'FAILED' ? 'done' : 'retry';
}
