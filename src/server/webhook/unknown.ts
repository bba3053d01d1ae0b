// A notification naming no reference the ledger holds. It is verified like any other (the answer
// follows what the gateway says, so it cannot tell which references the ledger holds): asked at
// most once per interval per reference, within the one budget every query takes from (beyond it,
// the 503 a pending payment gets). Money the gateway confirms for it is reported as `unmatched-payment`.
import { PAYMENT_REFERENCE } from '../../contract/rules.js';
import type { Gateway, QueryOutcome } from '../gateway/gateway.js';
import { withDeadline } from '../http/deadline.js';
import type { WebhookEvent } from './events.js';
import type { Notification } from './notification.js';
import type { QueryAllowance, Verdict, VerdictMemory } from './throttle.js';

type UnknownReferenceOptions = {
  gateway: Pick<Gateway, 'query'>;
  emit: (event: WebhookEvent) => void;
  memory: VerdictMemory;
  verifyTimeoutMs: number;
};

export function createUnknownReferenceCheck(
  options: UnknownReferenceOptions,
): (notification: Notification, allow: QueryAllowance) => Promise<Verdict> {
  const { emit, memory } = options;

  async function ask(notification: Notification, reference: string, allow: QueryAllowance): Promise<Verdict> {
    const recent = memory.recent(reference);
    if (recent) return recent;
    if (!allow()) return queryLimit(emit, notification, reference);
    const outcome = await queryWithin(options.gateway, reference, options.verifyTimeoutMs);
    if (outcome.kind === 'answer' && outcome.state === 'SUCCESS') {
      emit({
        type: 'unmatched-payment',
        paymentReference: reference,
        amount: outcome.amount,
        currency: outcome.currency,
      });
    } else {
      emit({ type: 'webhook-ignored', reason: 'unknown-reference', eventType: notification.eventType, reference });
    }
    // Paid or failed: the gateway need not deliver it again. Pending, not found or unverified: 503.
    const verdict: Verdict = outcome.kind === 'answer' && outcome.state !== 'PENDING' ? 'done' : 'retry';
    memory.remember(reference, verdict);
    return verdict;
  }

  return async (notification, allow) => {
    // The body is anyone's text: only something shaped like one of our references is asked about or
    // repeated. Anything else cannot name a payment, held or not: there is nothing to verify.
    const reference = notification.candidates.find((candidate) => PAYMENT_REFERENCE.test(candidate));
    if (reference === undefined) {
      emit({ type: 'webhook-ignored', reason: 'unknown-reference', eventType: notification.eventType, reference });
      return 'done';
    }
    return memory.share(reference, () => ask(notification, reference, allow));
  };
}

/** Not asked: the request's or the second's queries are spent. The 503 a pending payment gets, held or not. */
export function queryLimit(
  emit: (event: WebhookEvent) => void,
  notification: Notification,
  reference: string,
): Verdict {
  emit({ type: 'webhook-ignored', reason: 'query-limit', eventType: notification.eventType, reference });
  return 'retry';
}

/** The gateway's answer, or `timeout` once `timeoutMs` passed, even from a `query` that ignores its signal. */
function queryWithin(gateway: Pick<Gateway, 'query'>, reference: string, timeoutMs: number): Promise<QueryOutcome> {
  return withDeadline<QueryOutcome>(
    timeoutMs,
    async (flag) => {
      try {
        return await gateway.query(reference, { signal: flag.signal });
      } catch {
        return { kind: 'unverified', reason: 'unreadable' };
      }
    },
    () => ({ kind: 'unverified', reason: 'timeout' }),
  );
}
