// `pay-widget ledger recheck REF`: the gateway made from the server's settings (PAY_BASE_URL,
// PAY_PUBLIC_KEY, PAY_SECRET_KEY or PAY_ACCESS_TOKEN), then the person's recheck
// (src/server/settlement/recheck.ts), which never runs merchant code.
import { createGateway } from '../server/gateway/gateway.js';
import { recheckEntry, recheckSentence } from '../server/settlement/recheck.js';
import type { PaymentStore } from '../server/stores/types.js';
import { LedgerUsageError } from './ledger-stores.js';

export type GatewaySettings = { env: Record<string, string | undefined>; fetch?: typeof globalThis.fetch };

export async function recheck(
  payments: PaymentStore,
  reference: string,
  settings: GatewaySettings,
  now: () => number,
): Promise<string> {
  if (!(await payments.get(reference)))
    throw new LedgerUsageError(`no payment with reference ${JSON.stringify(reference)} in this ledger`);
  const result = await recheckEntry(payments, reference, gatewayFrom(settings), now);
  if (result.kind === 'unknown')
    throw new LedgerUsageError(`no payment with reference ${JSON.stringify(reference)} in this ledger`);
  return recheckSentence(reference, result);
}

function gatewayFrom({ env, fetch }: GatewaySettings) {
  const baseUrl = env.PAY_BASE_URL;
  const publicKey = env.PAY_PUBLIC_KEY;
  const secretKey = env.PAY_SECRET_KEY;
  const accessToken = env.PAY_ACCESS_TOKEN;
  if (!baseUrl || !publicKey || !(secretKey || accessToken)) {
    throw new LedgerUsageError(
      "recheck asks the gateway with the server's settings: set PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY (or PAY_ACCESS_TOKEN)",
    );
  }
  return createGateway({
    baseUrl,
    publicKey,
    ...(secretKey ? { secretKey } : { accessToken: accessToken! }),
    ...(fetch ? { fetch } : {}),
  });
}
