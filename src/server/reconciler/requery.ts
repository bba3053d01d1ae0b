// What the reconciler writes after asking the gateway about an entry: the next step of its schedule
// (PENDING: from its creation, daily while its transfer account is open, 1 h, 6 h, 24 h, 72 h after
// it closed, then `stale`; FAILED: 1 h, 6 h, 24 h, 72 h after the failure, then
// nothing), or, when the query got no readable answer, the same step again after a back-off. An
// unanswered query never uses up a step and never makes an entry stale, nor does one made before
// its step was due.
import { nextCheckAfterFailure, nextCheckAt, unansweredRetryAt } from './schedule.js';
import type { Payment, PaymentStore } from '../stores/types.js';

export type Ledger = {
  payments: PaymentStore;
  now: () => number;
  emit: (event: { type: 'stale'; paymentReference: string; checks: number }) => void;
};

/** How often a schedule step is written again after losing a race, before waiting for the next sweep. */
const MAX_WRITES = 4;

/**
 * Moves an entry the gateway answered for (still pending, or still failed) to its next check, or
 * ends its schedule: `stale` after the last PENDING step, nothing more after the last FAILED one.
 * Re-reads after a lost race; an entry settled meanwhile is not this sweep's to schedule.
 */
export async function nextStep(ledger: Ledger, latest: Payment): Promise<'pending' | 'stale' | 'done' | undefined> {
  const written = await rewrite(ledger, latest, (current) => answeredStep(current, ledger.now()));
  if (!written) return undefined;
  const [before, after] = written;
  if (after.state === 'FAILED') return after.dueAt === undefined ? 'done' : 'pending';
  if (!after.stale) return 'pending';
  if (!before.stale)
    ledger.emit({ type: 'stale', paymentReference: after.paymentReference, checks: after.checks ?? 0 });
  return 'stale';
}

/** The query got no readable answer: the same step is tried again after a back-off, for as long as it takes. */
export async function retryUnanswered(ledger: Ledger, latest: Payment): Promise<void> {
  await rewrite(ledger, latest, (current) => {
    const unanswered = (current.unanswered ?? 0) + 1;
    return { ...current, unanswered, dueAt: unansweredRetryAt(ledger.now(), unanswered) };
  });
}

/** An entry due for nothing the reconciler does (it never started, or was settled elsewhere): off the sweep. */
export async function nothingOwed(payments: PaymentStore, entry: Payment): Promise<void> {
  const next = { ...entry };
  delete next.dueAt;
  await payments.update(next);
}

/** Writes `change(current)` by compare-and-set while the entry keeps its state; the entry before and after. */
async function rewrite(
  ledger: Ledger,
  latest: Payment,
  change: (current: Payment) => Payment,
): Promise<[Payment, Payment] | undefined> {
  let current = latest;
  for (let attempt = 1; attempt <= MAX_WRITES; attempt += 1) {
    const next = change(current);
    if (await ledger.payments.update(next)) return [current, next];
    const reread = await ledger.payments.get(current.paymentReference);
    if (!reread || reread.state !== latest.state) return undefined; // settled meanwhile: not ours to schedule
    current = reread;
  }
  return undefined; // its claim lapses, and a later sweep takes it again
}

/** The entry after an answered query: its next step, or its schedule ended. */
function answeredStep(current: Payment, time: number): Payment {
  const next: Payment = { ...current };
  delete next.unanswered;
  if (current.state === 'FAILED') {
    const at = nextCheckAfterFailure(current.failedAt ?? current.updatedAt, time);
    if (at === undefined) delete next.dueAt;
    else next.dueAt = at;
    return next;
  }
  // Asked before its step was due (a notification the webhook could not verify made it due): the
  // step is not used up, so notifications cannot hurry a payment to `stale`.
  const owed = nextCheckAt(current.createdAt, current.checks ?? 0);
  if (owed !== undefined && owed > time) {
    next.dueAt = owed;
    return next;
  }
  const checks = (current.checks ?? 0) + 1;
  next.checks = checks;
  // Steps whose time already passed (the reconciler was not running) are skipped, not made up.
  let step = checks;
  let at = nextCheckAt(current.createdAt, step, current.openUntil);
  while (at !== undefined && at <= time) at = nextCheckAt(current.createdAt, ++step, current.openUntil);
  if (at !== undefined) {
    next.dueAt = at;
  } else {
    delete next.dueAt;
    next.stale = true;
  }
  return next;
}
