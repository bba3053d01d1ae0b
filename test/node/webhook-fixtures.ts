// What the webhook tests share: ledger entries, gateway answers, notifications and a gateway that
// counts its queries.
import type { QueryOutcome } from '../../src/server/internal.js';
import type { Payment } from '../../src/server/stores/types.js';

export const WEBHOOK_URL = 'https://shop.test/pay/webhook';

export function ledgerEntry(paymentReference: string, changes: Partial<Payment> = {}): Payment {
  return {
    paymentReference,
    paymentType: 'TRANSFER',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: 1,
    updatedAt: 1,
    ...changes,
  };
}

/** The gateway's query answer for `code` (`00` paid, `S12` failed, anything else pending), for 5000 NGN. */
export function answer(code: string, changes: Partial<Extract<QueryOutcome, { kind: 'answer' }>> = {}): QueryOutcome {
  const state = code === '00' ? 'SUCCESS' : code === 'S12' ? 'FAILED' : 'PENDING';
  return { kind: 'answer', state, code, amount: 5000, currency: 'NGN', message: undefined, ...changes };
}

/** The gateway's notification naming `reference`, as it posts it. */
export function notify(reference: string, ack = 'ACK-1'): Request {
  const item = {
    eventType: 'transaction',
    data: { reference, amount: 5000, currency: 'NGN', code: '00', email: 'ada@example.ng' },
  };
  return new Request(WEBHOOK_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-expected-ack-reference': ack },
    body: JSON.stringify({ notificationItems: [{ notificationRequestItem: item }] }),
  });
}

/** A gateway whose `query` answers `answerFor(reference)` after `delayMs`, recording each reference asked. */
export function countingGateway(answerFor: (reference: string) => QueryOutcome, delayMs = 0) {
  const queries: string[] = [];
  return {
    queries,
    query: async (reference: string): Promise<QueryOutcome> => {
      queries.push(reference);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answerFor(reference);
    },
  };
}
