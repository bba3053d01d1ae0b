// `pay-widget ledger recheck REF`: asks the gateway about one payment now, with the keys the server
// uses (PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY or PAY_ACCESS_TOKEN), and moves the entry
// through the same verify-and-settle as the webhook and the reconciler. Merchant code never runs
// here: a payment found paid is left owing its `onPaid`, due now, for the server's next sweep (the
// store the settlement sees answers every fulfilment `busy`); `onFailed` is the server's alone.
import { createGateway } from '../server/gateway.js';
import { createHistoryRecorder, historyListener } from '../server/ledger/history.js';
import { verifyAndSettle } from '../server/settle.js';
import type { PaymentStore } from '../server/stores/types.js';
import { LedgerUsageError } from './ledger-stores.js';

export type GatewaySettings = { env: Record<string, string | undefined>; fetch?: typeof globalThis.fetch };

export async function recheck(payments: PaymentStore, reference: string, settings: GatewaySettings, now: () => number): Promise<string> {
  const entry = await payments.get(reference);
  if (!entry) throw new LedgerUsageError(`no payment with reference ${JSON.stringify(reference)} in this ledger`);
  const gateway = gatewayFrom(settings);
  const record = createHistoryRecorder(payments);
  record(reference, { at: now(), what: 'rechecked', by: 'person' });
  const fulfilmentLeftToServer: PaymentStore = { ...payments, fulfilInTransaction: async () => 'busy' };
  const result = await verifyAndSettle(entry, gateway, {
    payments: fulfilmentLeftToServer,
    onPaid: () => {
      throw new Error('onPaid runs on the server, never in pay-widget ledger');
    },
    emit: historyListener(record, now),
    now,
    queryTimeoutMs: 20_000,
  });
  await record.flush();
  const after = (await payments.get(reference)) ?? entry;
  if (result.kind === 'unverified') return `The gateway gave no readable answer (${result.reason}); ${reference} is unchanged.`;
  const paidAndOwed = after.state === 'SUCCESS' && after.fulfilledAt === undefined;
  return `${reference}: ${after.state}${after.gatewayCode ? ` (code ${after.gatewayCode})` : ''}${after.review ? `, for review: ${after.review.reason}` : ''}${paidAndOwed ? "; the server's next sweep runs onPaid" : ''}.`;
}

function gatewayFrom({ env, fetch }: GatewaySettings) {
  const baseUrl = env.PAY_BASE_URL;
  const publicKey = env.PAY_PUBLIC_KEY;
  const secretKey = env.PAY_SECRET_KEY;
  const accessToken = env.PAY_ACCESS_TOKEN;
  if (!baseUrl || !publicKey || !(secretKey || accessToken)) {
    throw new LedgerUsageError("recheck asks the gateway with the server's settings: set PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY (or PAY_ACCESS_TOKEN)");
  }
  return createGateway({ baseUrl, publicKey, ...(secretKey ? { secretKey } : { accessToken: accessToken! }), ...(fetch ? { fetch } : {}) });
}
