// The webhook endpoint: the gateway's notification (docs/architecture.md, "The notification") is a hint, never a
// fact. The request is checked and read here (notification.ts), each item's reference is verified
// with the gateway at most once per interval (checks.ts, throttle.ts), and the answer is 200 when
// the gateway need not deliver it again, else 503.
import type { Gateway } from '../gateway/gateway.js';
import { readJsonBody, requireJson, requireMethod, type RequestProblem } from '../../contract/request-checks.js';
import { errorReply, jsonReply, toResponse, type Reply } from '../http/reply.js';
import { assertStore } from '../options.js';
import { optionChecks } from '../../contract/option-checks.js';
import { scrubbedEmitter } from '../http/emitter.js';
import type { PaymentHook } from '../settlement/settle.js';
import { PAYMENT_STORE_METHODS, type PaymentStore } from '../stores/types.js';
import { createNotificationChecker } from './checks.js';
import type { WebhookEvent } from './events.js';
import { readNotifications } from './notification.js';
import { createQueryBudget, createVerdictMemory, requestAllowance } from './throttle.js';

export type WebhookHandlerOptions = {
  gateway: Pick<Gateway, 'query'>;
  payments: PaymentStore;
  /** Runs once per reference, after the ledger says SUCCESS for the ledger's amount and currency. */
  onPaid: PaymentHook;
  /** Runs once per reference, after the ledger says FAILED. */
  onFailed?: PaymentHook;
  /** Every decision, for logs and alerts; never a token, key or customer detail. */
  onEvent?: (event: WebhookEvent) => void | Promise<void>;
  /**
   * How long the gateway's query may take before the answer is 503 (the gateway then retries);
   * default 3 000 ms, inside the gateway's 5 s deadline.
   */
  verifyTimeoutMs?: number;
  /**
   * The gateway is asked about one reference at most once per this many ms, however many
   * notifications name it, on this instance or any other sharing the ledger (the status handler's
   * re-query counts too); the notifications in between get the last verdict. Default 5 000 ms, the
   * status handler's `recheckAfterMs`.
   */
  requeryAfterMs?: number;
  /**
   * Gateway queries a second, at most, for every reference the notifications name, held by the
   * ledger or not (verified alike, so neither the answer nor its time tells which it holds); beyond
   * it an item is answered 503, as a pending payment is, and the gateway delivers it again; a
   * reference the ledger holds is then made due for the reconciler's next sweep. Default 5.
   */
  queriesPerSecond?: number;
  /** Gateway queries one notification request may make, at most (it may name 50 payments); default 5. */
  queriesPerRequest?: number;
  /**
   * The lease that keeps other callers (a delivery, a poll, the reconciler, here or on another
   * instance) off `onPaid` while it runs lives this long unrenewed: renewed every third of it while
   * `onPaid` runs, it lapses this long after its process died; default 60 000 ms.
   */
  leaseMs?: number;
  /**
   * How long `onPaid` is waited for; default 30 000 ms. Past it the call is given up: its `signal`
   * aborts, on the PostgreSQL ledger its transaction is rolled back, `onEvent` hears
   * `onPaid-timeout`; one that runs on keeps its lease (no other caller starts it) until it ends,
   * and the payment is then owed again after its back-off. The delivery itself is
   * answered 503 after at most 1 s of `onPaid`, which goes on; delivered again once `onPaid`
   * returned, it is answered 200.
   */
  onPaidTimeoutMs?: number;
  /** The clock, in ms since the epoch; default `Date.now`. For tests. */
  now?: () => number;
};

export type WebhookHandler = (request: Request) => Promise<Response>;

/** No published limit; the published sample is under 2 KB. */
const MAX_BODY_BYTES = 64 * 1024;
/** `X-Expected-Ack-Reference` is echoed when it is plain text of a sane length. */
const ACK_REFERENCE = /^[\x20-\x7e]{1,500}$/;
const MALFORMED: RequestProblem = {
  code: 'invalid_json',
  message: 'The body is not a gateway notification.',
  reason: 'malformed',
};

export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  assertOptions(options);
  const verifyTimeoutMs = options.verifyTimeoutMs ?? 3_000;
  // The gateway's answers and the notification are text from outside: scrubbed before they are reported.
  const emit = scrubbedEmitter(options.onEvent, options.gateway);
  const now = options.now ?? Date.now;
  const requeryAfterMs = options.requeryAfterMs ?? 5_000;
  const memory = createVerdictMemory(requeryAfterMs, now);
  const budget = createQueryBudget(options.queriesPerSecond ?? 5, now);
  const queriesPerRequest = options.queriesPerRequest ?? 5;
  const { gateway, payments, onPaid, onFailed } = options;
  const { leaseMs, onPaidTimeoutMs } = options;
  const check = createNotificationChecker({
    gateway,
    payments,
    onPaid,
    onFailed,
    emit,
    memory,
    verifyTimeoutMs,
    requeryAfterMs,
    leaseMs,
    onPaidTimeoutMs,
    now,
  });

  async function handle(request: Request): Promise<Reply> {
    const refused = requireMethod(request, 'POST') ?? requireJson(request, 'the notification');
    if (refused) return reject(refused);
    // The body's arrival counts against the same budget as the verification: the gateway waits 5 s in all.
    const body = await readJsonBody(request, {
      maxBytes: MAX_BODY_BYTES,
      timeoutMs: verifyTimeoutMs,
      what: 'The notification body',
    });
    if (!body.ok && (body.problem.reason === 'too-large' || body.problem.reason === 'slow-body'))
      return reject(body.problem);
    const notifications = body.ok ? readNotifications(body.json) : undefined;
    if (!notifications) return reject(MALFORMED);

    const allow = requestAllowance(queriesPerRequest, budget);
    const verdicts = await Promise.all(notifications.map((notification) => check(notification, allow)));
    if (verdicts.includes('retry')) return deliverAgain();
    const ack = request.headers.get('x-expected-ack-reference');
    return jsonReply(200, {
      ackReference: ack !== null && ACK_REFERENCE.test(ack) ? ack : `ack-${crypto.randomUUID()}`,
      status: 'received',
    });
  }

  function reject(problem: RequestProblem): Reply {
    const reply = errorReply(problem.code, problem.message, { headers: problem.headers });
    // A body that could not be read is reported as one that is not a notification, as it always was.
    emit({
      type: 'webhook-rejected',
      status: reply.status,
      reason: problem.reason === 'unreadable' ? 'malformed' : problem.reason,
    });
    return reply;
  }

  return async (request) => {
    let reply: Reply;
    try {
      reply = await handle(request);
    } catch {
      // A store that threw: the gateway delivers again later.
      reply = deliverAgain();
    }
    return toResponse(reply, {});
  };
}

/**
 * The one 503, whatever the reason (open, unknown to the gateway, unverified, `onPaid` owed, a store
 * that threw): its words must not tell references the ledger holds from those it does not.
 */
function deliverAgain(): Reply {
  return errorReply('server_busy', 'The notification could not be settled yet; deliver it again.');
}

function assertOptions(options: WebhookHandlerOptions): void {
  const check = optionChecks('createWebhookHandler');
  if (!options) check.fail('options are required');
  if (typeof options.gateway?.query !== 'function') check.fail('gateway must have a query function (createGateway)');
  assertStore(options.payments, PAYMENT_STORE_METHODS, 'createWebhookHandler: payments (a PaymentStore)');
  check.requiredFunction('onPaid', options.onPaid);
  check.optionalFunction('onFailed', options.onFailed);
  check.optionalFunction('onEvent', options.onEvent);
  check.positiveMs('verifyTimeoutMs', options.verifyTimeoutMs);
  check.nonNegativeMs('requeryAfterMs', options.requeryAfterMs);
  check.positiveMs('queriesPerSecond', options.queriesPerSecond);
  const perRequest = options.queriesPerRequest;
  if (perRequest !== undefined && !(Number.isInteger(perRequest) && perRequest > 0))
    check.fail('queriesPerRequest must be a positive whole number');
  check.positiveMs('leaseMs', options.leaseMs);
  check.positiveMs('onPaidTimeoutMs', options.onPaidTimeoutMs);
  check.optionalFunction('now', options.now);
}
