// The one claim-and-verify of a ledger entry, for the webhook and the status endpoint: this
// interval's gateway query is claimed with a compare-and-set on the entry's `checkedAt` (so one
// query is made per interval across every request and instance), then the gateway is asked and
// its answer settles the entry through the one transition (`verifyAndSettle`). The reconciler's
// sweep claims its entries with `claimDue` instead, and settles them through the same transition.
import type { Gateway } from '../gateway/gateway.js';
import { errorName } from '../http/emitter.js';
import type { Payment } from '../ledger/entry.js';
import { writeMove } from '../ledger/write.js';
import { verifyAndSettle, type VerifyContext, type VerifyResult } from './settle.js';

/**
 * `taken`: another request (here or on another instance) asks the gateway this interval.
 * `store-failed`: the claim could not be written (reported as `internal-error`); nothing was asked.
 * `verified`: the gateway was asked; `claimed` is the entry as the claim left it.
 */
export type ClaimedVerify =
  { kind: 'taken' } | { kind: 'store-failed' } | { kind: 'verified'; claimed: Payment; result: VerifyResult };

export async function claimAndVerify(
  entry: Payment,
  gateway: Pick<Gateway, 'query'>,
  context: VerifyContext,
): Promise<ClaimedVerify> {
  const now = context.now ?? Date.now;
  const reference = entry.paymentReference;
  const claim = await writeMove(
    context.payments,
    entry,
    { type: 'query-claimed', at: now() },
    {
      tries: 1,
      report: (error) =>
        context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) }),
    },
  );
  if (claim.kind === 'gave-up' && claim.why === 'store') return { kind: 'store-failed' };
  if (claim.kind !== 'written') return { kind: 'taken' };
  const claimed = claim.after;
  return { kind: 'verified', claimed, result: await verifyAndSettle(claimed, gateway, context) };
}
