// The demo's server-side log of the payment loop: each step the session, sandbox, webhook and
// status endpoints and the reconciler take, in words, fed by their `onEvent` hooks and `onPaid`.
// The page polls `GET /demo/events?after=<id>` for new steps. A step names references, codes and
// amounts only: never a token, a key or the customer's details (the hooks never see those either).
import type {
  Payment,
  ReconcileCounts,
  ReconcileEvent,
  SessionEvent,
  StatusEvent,
  WebhookEvent,
} from '../src/server/internal.js';
import type { WebhookAttempt } from '../src/sandbox/index.js';

export type LoopSource = 'session' | 'sandbox' | 'webhook' | 'status' | 'reconciler' | 'ledger' | 'merchant';

export type LoopStep = {
  id: number;
  /** ISO time. */
  at: string;
  source: LoopSource;
  /** What happened, e.g. `initiated`, `webhook-sent`, `verified`, `paid`, `on-paid`, `status-answered`. */
  kind: string;
  paymentReference?: string;
  text: string;
};

export type LoopLog = {
  /** Steps after `id` (0: all kept), oldest first. */
  since(id: number): LoopStep[];
  session(event: SessionEvent): void;
  webhook(event: WebhookEvent): void;
  status(event: StatusEvent): void;
  reconciler(event: ReconcileEvent): void;
  /** The reconciler was started, sweeping every `intervalMs`. */
  reconcilerStarted(intervalMs: number): void;
  /** One try of the sandbox's webhook; `lost`: the demo's "webhook lost" switch dropped it on the way. */
  delivery(attempt: WebhookAttempt, lost?: boolean): void;
  customer(paymentReference: string, outcome: 'SUCCESS' | 'FAILED'): void;
  statusAnswered(paymentReference: string, status: string): void;
  onPaid(payment: Payment): void;
  onFailed(payment: Payment): void;
};

/** Enough for a demo session; older steps are dropped. */
const KEPT = 500;

type SettleLike = Extract<
  WebhookEvent,
  {
    type:
      | 'paid'
      | 'late-success'
      | 'fulfilled'
      | 'onPaid-timeout'
      | 'failed'
      | 'amount-mismatch'
      | 'needs-review'
      | 'code-reported'
      | 'internal-error'
      | 'verified'
      | 'unverified';
  }
>;
type SettlingPath = 'webhook' | 'status' | 'reconciler';

const MOVED_BY: Record<SettlingPath, string> = {
  webhook: 'the webhook',
  status: 'a status poll',
  reconciler: 'the reconciler',
};
const QUERIED: Record<SettlingPath, string> = {
  webhook: 'Re-verified',
  status: 'A status poll re-queried',
  reconciler: 'The reconciler queried',
};

/** `checked 1, paid 1, fulfilled 1`: the sweep's non-zero counts, in the reconciler's order. */
function sweepSummary(counts: ReconcileCounts): string {
  return (Object.entries(counts) as [keyof ReconcileCounts, number][])
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
}

export function createLoopLog(): LoopLog {
  const steps: LoopStep[] = [];
  const answered = new Set<string>();
  let last = 0;

  function add(source: LoopSource, kind: string, text: string, paymentReference?: string): void {
    last += 1;
    steps.push({
      id: last,
      at: new Date().toISOString(),
      source,
      kind,
      text,
      ...(paymentReference ? { paymentReference } : {}),
    });
    if (steps.length > KEPT) steps.shift();
  }

  /** The events the webhook and the status re-query share (settle.ts and the query). */
  function settling(event: SettleLike, path: SettlingPath): void {
    const by = MOVED_BY[path];
    switch (event.type) {
      case 'verified':
        add(
          path,
          'verified',
          `${QUERIED[path]} ${event.paymentReference} through the gateway's query: ${event.state} (code ${event.code}).`,
          event.paymentReference,
        );
        return;
      case 'unverified':
        add(
          path,
          'unverified',
          `Could not verify ${event.paymentReference} (${event.reason}); it stays as it was.`,
          event.paymentReference,
        );
        return;
      case 'paid':
        add(
          'ledger',
          'paid',
          `${event.paymentReference}: PENDING → SUCCESS for ${event.currency} ${event.amount}, moved by ${by}.`,
          event.paymentReference,
        );
        return;
      case 'late-success':
        add(
          'ledger',
          'late-success',
          `${event.paymentReference}: FAILED → SUCCESS for ${event.currency} ${event.amount} (the gateway confirmed it paid later), moved by ${by}.`,
          event.paymentReference,
        );
        return;
      case 'fulfilled':
        add(
          'ledger',
          'fulfilled',
          `${event.paymentReference}: onPaid returned${event.attempts > 1 ? ` (attempt ${event.attempts})` : ''}; the order is fulfilled and onPaid will not run again.`,
          event.paymentReference,
        );
        return;
      case 'onPaid-timeout':
        add(
          path,
          'onPaid-timeout',
          `${event.paymentReference}: onPaid did not return within ${event.timeoutMs / 1000} s; given up, owed again after its back-off.`,
          event.paymentReference,
        );
        return;
      case 'failed':
        add(
          'ledger',
          'failed',
          `${event.paymentReference}: PENDING → FAILED (code ${event.code}), moved by ${by}.`,
          event.paymentReference,
        );
        return;
      case 'amount-mismatch':
        add(
          'ledger',
          'amount-mismatch',
          `${event.paymentReference}: the gateway reports ${event.received.currency ?? '?'} ${event.received.amount ?? '?'}, the ledger ${event.expected.currency} ${event.expected.amount}: not paid.`,
          event.paymentReference,
        );
        return;
      case 'needs-review':
        add(
          'ledger',
          'needs-review',
          `${event.paymentReference}: marked for a person's review (${event.reason}${event.amountReceived ? `, received ${event.currencyReceived ?? ''}${event.amountReceived}` : ''}); it never expires.`,
          event.paymentReference,
        );
        return;
      case 'code-reported':
        add(
          path,
          'code-reported',
          `${event.paymentReference}: the gateway sent code ${event.code} (${event.report}); left PENDING.`,
          event.paymentReference,
        );
        return;
      case 'internal-error':
        add(
          path,
          'internal-error',
          `Internal error (${event.where}) for ${event.paymentReference}.`,
          event.paymentReference,
        );
    }
  }

  return {
    since: (id) => steps.filter((step) => step.id > id),

    session(event) {
      switch (event.type) {
        case 'initiated':
          add(
            'session',
            'initiated',
            `The gateway started ${event.paymentReference} (${event.paymentType}) for ${event.currency} ${event.amount}; the ledger records it PENDING.`,
            event.paymentReference,
          );
          return;
        case 'gateway':
          if (event.outcome !== 'success') {
            add(
              'session',
              'gateway',
              `The gateway answered ${event.outcome}${event.httpStatus ? ` (HTTP ${event.httpStatus})` : ''} for ${event.paymentReference}.`,
              event.paymentReference,
            );
          }
          return;
        case 'rejected':
          add('session', 'rejected', `Refused a request: ${event.code} (HTTP ${event.status}).`);
          return;
        case 'replayed':
          add(
            'session',
            'replayed',
            `A retried request got the stored answer again (HTTP ${event.status}); the gateway was not asked twice.`,
          );
          return;
        case 'rate-limited':
          add('session', 'rate-limited', `Rate-limited a request (retry after ${event.retryAfterSeconds} s).`);
          return;
        case 'internal-error':
          add('session', 'internal-error', `Internal error (${event.where}).`);
      }
    },

    webhook(event) {
      switch (event.type) {
        case 'webhook-rejected':
          add('webhook', event.type, `Refused a notification: ${event.reason} (HTTP ${event.status}).`);
          return;
        case 'webhook-ignored': {
          const why =
            event.reason === 'query-limit'
              ? 'too many such queries this second (answered 503)'
              : 'the gateway does not say it was paid';
          add('webhook', event.type, `A notification naming no payment in the ledger: ${why}.`);
          return;
        }
        case 'unmatched-payment':
          add(
            'webhook',
            event.type,
            `The gateway says ${event.paymentReference} was paid, but the ledger has no such payment: look at it.`,
            event.paymentReference,
          );
          return;
        case 'already-settled':
          add(
            'webhook',
            event.type,
            `${event.paymentReference} is already ${event.state}: acknowledged, nothing done twice.`,
            event.paymentReference,
          );
          return;
        default:
          settling(event, 'webhook');
      }
    },

    status(event) {
      if (event.type === 'internal-error' && !('paymentReference' in event)) {
        add('status', 'internal-error', `The status handler could not answer (${event.where}: ${event.detail}).`);
        return;
      }
      settling(event, 'status');
    },

    reconciler(event) {
      switch (event.type) {
        case 'reconcile-sweep': {
          // A sweep that found nothing due is not listed: one every interval would bury the rest.
          const summary = sweepSummary(event.counts);
          if (summary) add('reconciler', 'sweep', `A sweep of the ledger's due entries: ${summary}.`);
          return;
        }
        case 'stale':
          add(
            'reconciler',
            'stale',
            `${event.paymentReference} is still pending after ${event.checks} checks: left PENDING, off the sweep, for a person to look at.`,
            event.paymentReference,
          );
          return;
        case 'internal-error':
          if (event.where === 'reconciler') {
            add(
              'reconciler',
              'internal-error',
              `The sweep failed${event.paymentReference ? ` for ${event.paymentReference}` : ''} (${event.detail}).`,
              event.paymentReference,
            );
            return;
          }
          settling(event, 'reconciler');
          return;
        default:
          settling(event, 'reconciler');
      }
    },

    reconcilerStarted(intervalMs) {
      add(
        'reconciler',
        'started',
        `The reconciler sweeps the ledger every ${intervalMs / 1000} s (sweeps that find nothing due are not listed).`,
      );
    },

    delivery(attempt, lost = false) {
      if (lost) {
        add(
          'sandbox',
          'webhook-lost',
          `The webhook for ${attempt.paymentReference} (try ${attempt.attempt}) was lost on the way ("webhook lost" is on): this server never saw it.`,
          attempt.paymentReference,
        );
        return;
      }
      const answer = attempt.httpStatus === undefined ? 'no answer' : `HTTP ${attempt.httpStatus}`;
      const verdict = attempt.acknowledged
        ? 'acknowledged'
        : attempt.gaveUp
          ? 'not acknowledged, given up'
          : 'not acknowledged, will retry';
      add(
        'sandbox',
        'webhook-sent',
        `Posted the webhook for ${attempt.paymentReference} (try ${attempt.attempt}): ${answer}, ${verdict}.`,
        attempt.paymentReference,
      );
    },

    customer(paymentReference, outcome) {
      const text =
        outcome === 'SUCCESS'
          ? `The customer paid ${paymentReference}.`
          : `The customer's bank declined ${paymentReference}.`;
      add('sandbox', 'customer', text, paymentReference);
    },

    statusAnswered(paymentReference, status) {
      // Once per reference and state: the page polls every 2 s.
      const key = `${paymentReference} ${status}`;
      if (answered.has(key)) return;
      answered.add(key);
      add(
        'status',
        'status-answered',
        `Told the page's status poll that ${paymentReference} is ${status}.`,
        paymentReference,
      );
    },

    onPaid(payment) {
      add(
        'merchant',
        'on-paid',
        `onPaid ran for ${payment.paymentReference} (${payment.currency} ${payment.amount}): time to ship the order.`,
        payment.paymentReference,
      );
    },

    onFailed(payment) {
      add('merchant', 'on-failed', `onFailed ran for ${payment.paymentReference}.`, payment.paymentReference);
    },
  };
}
