// A person's "ask the gateway now" (`pay-widget ledger recheck`, the ledger page): the entry moved
// through the same verify-and-settle as the webhook and the reconciler, its decisions in its
// history. Merchant code never runs here: a payment found paid is left owing its `onPaid`, due now,
// for the server's next sweep (the store the settlement sees answers every fulfilment `busy`), and
// `onFailed` is the server's alone.
import type { Gateway } from '../gateway/gateway.js';
import { verifyAndSettle } from './settle.js';
import type { Payment } from '../ledger/entry.js';
import type { PaymentStore } from '../stores/types.js';
import { createHistoryRecorder, historyListener } from '../ledger/history.js';

export type RecheckResult =
  { kind: 'unknown' } | { kind: 'unverified'; reason: string } | { kind: 'answered'; payment: Payment };

export async function recheckEntry(
  payments: PaymentStore,
  reference: string,
  gateway: Pick<Gateway, 'query'>,
  now: () => number,
): Promise<RecheckResult> {
  const entry = await payments.get(reference);
  if (!entry) return { kind: 'unknown' };
  const record = createHistoryRecorder(payments);
  record(reference, { at: now(), what: 'rechecked', by: 'person' });
  const fulfilmentLeftToServer: PaymentStore = { ...payments, fulfilInTransaction: async () => 'busy' };
  const result = await verifyAndSettle(entry, gateway, {
    payments: fulfilmentLeftToServer,
    onPaid: () => {
      throw new Error('onPaid runs on the server, never in a person’s recheck');
    },
    emit: historyListener(record, now),
    now,
    queryTimeoutMs: 20_000,
  });
  await record.flush();
  if (result.kind === 'unverified') return result;
  return { kind: 'answered', payment: (await payments.get(reference)) ?? entry };
}

/** What became of it, in one sentence for a person. */
export function recheckSentence(reference: string, result: Exclude<RecheckResult, { kind: 'unknown' }>): string {
  if (result.kind === 'unverified')
    return `The gateway gave no readable answer (${result.reason}); ${reference} is unchanged.`;
  const after = result.payment;
  const owed =
    after.state === 'SUCCESS' && after.fulfilledAt === undefined ? "; the server's next sweep runs onPaid" : '';
  return `${reference}: ${after.state}${after.gatewayCode ? ` (code ${after.gatewayCode})` : ''}${after.review ? `, for review: ${after.review.reason}` : ''}${owed}.`;
}
