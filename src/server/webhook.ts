// The gateway's notification (spec/gateway-companion.md §3) only names a reference: anyone can post
// it, and it is not signed. The handler finds the payment in the ledger, asks the gateway what
// became of it and settles it through the one transition (`verifyAndSettle`), so `onPaid` runs
// once per reference however often and however concurrently the notification comes.
import { PAYMENT_REFERENCE } from '../rules.js';
import type { Gateway } from './gateway.js';
import { readJsonBody, requireJson, requireMethod, type RequestProblem } from './http/checks.js';
import { isRecord } from './http/json.js';
import { errorReply, jsonReply, toResponse, type Reply } from './http/reply.js';
import { assertStore, optionChecks } from './options.js';
import { scrubbedEmitter } from './http/emitter.js';
import { verifyAndSettle, type PaymentHook, type VerifyEvent } from './settle.js';
import { PAYMENT_STORE_METHODS, type Payment, type PaymentStore } from './stores.js';

export type WebhookEvent =
  | { type: 'webhook-rejected'; status: number; reason: 'method' | 'content-type' | 'too-large' | 'slow-body' | 'malformed' }
  /**
   * No candidate reference names a ledger entry: answered 200 so the gateway stops, and reported.
   * `reference` is the first candidate shaped like a payment reference, if any.
   */
  | { type: 'webhook-ignored'; reason: 'unknown-reference'; eventType: string | undefined; reference: string | undefined }
  | { type: 'already-settled'; paymentReference: string; state: Payment['state'] }
  | VerifyEvent;

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
};

export type WebhookHandler = (request: Request) => Promise<Response>;

/** No published limit; the published sample is under 2 KB. */
const MAX_BODY_BYTES = 64 * 1024;
/** A notification naming more payments than this is not one the gateway sends. */
const MAX_ITEMS = 50;
const MAX_REFERENCE_LENGTH = 200;
/** `X-Expected-Ack-Reference` is echoed when it is plain text of a sane length. */
const ACK_REFERENCE = /^[\x20-\x7e]{1,500}$/;
/** `transaction`, `transaction.wallet`, `refund`, …: anything else is not repeated to `onEvent`. */
const EVENT_TYPE = /^[\w.-]{1,60}$/;
const REFERENCE_FIELDS = ['reference', 'paymentReference', 'externalReference'] as const;
const MALFORMED: RequestProblem = { code: 'invalid_json', message: 'The body is not a gateway notification.', reason: 'malformed' };

type Notification = { eventType: string | undefined; candidates: string[] };
type Verdict = 'done' | 'retry';

export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  assertOptions(options);
  const verifyTimeoutMs = options.verifyTimeoutMs ?? 3_000;
  // The gateway's answers and the notification are text from outside: scrubbed before they are reported.
  const emit = scrubbedEmitter(options.onEvent, options.gateway);
  const settle = createNotificationSettler(options, emit, verifyTimeoutMs);

  async function handle(request: Request): Promise<Reply> {
    const refused = requireMethod(request, 'POST') ?? requireJson(request, 'the notification');
    if (refused) return reject(refused);
    // The body's arrival counts against the same budget as the verification: the gateway waits 5 s in all.
    const body = await readJsonBody(request, { maxBytes: MAX_BODY_BYTES, timeoutMs: verifyTimeoutMs, what: 'The notification body' });
    if (!body.ok && (body.problem.reason === 'too-large' || body.problem.reason === 'slow-body')) return reject(body.problem);
    const notifications = body.ok ? readNotifications(body.json) : undefined;
    if (!notifications) return reject(MALFORMED);

    const verdicts = await Promise.all(notifications.map(settle));
    if (verdicts.includes('retry')) return errorReply('server_busy', 'The payment could not be verified yet; deliver it again.');
    const ack = request.headers.get('x-expected-ack-reference');
    return jsonReply(200, { ackReference: ack !== null && ACK_REFERENCE.test(ack) ? ack : `ack-${crypto.randomUUID()}`, status: 'received' });
  }

  function reject(problem: RequestProblem): Reply {
    const reply = errorReply(problem.code, problem.message, { headers: problem.headers });
    // A body that could not be read is reported as one that is not a notification, as it always was.
    emit({ type: 'webhook-rejected', status: reply.status, reason: problem.reason === 'unreadable' ? 'malformed' : problem.reason });
    return reply;
  }

  return async (request) => {
    let reply: Reply;
    try {
      reply = await handle(request);
    } catch {
      // A store that threw: the gateway delivers again later.
      reply = errorReply('server_busy', 'The notification could not be processed; deliver it again.');
    }
    return toResponse(reply, {});
  };
}

/**
 * One notification's verdict: `done` (answered 200) for an unknown or settled reference, `retry`
 * (503) while the gateway's answer could not be read or the payment is still open. Duplicates
 * arriving together share one verification: one query, one settlement attempt.
 */
function createNotificationSettler(
  options: WebhookHandlerOptions,
  emit: (event: WebhookEvent) => void,
  verifyTimeoutMs: number,
): (notification: Notification) => Promise<Verdict> {
  const verifying = new Map<string, Promise<Verdict>>();

  async function findEntry(candidates: string[]): Promise<Payment | undefined> {
    for (const candidate of candidates) {
      const entry = await options.payments.get(candidate);
      if (entry) return entry;
    }
    return undefined;
  }

  async function verify(entry: Payment): Promise<Verdict> {
    const { payments, onPaid, onFailed } = options;
    const result = await verifyAndSettle(entry, options.gateway, { payments, onPaid, onFailed, emit, queryTimeoutMs: verifyTimeoutMs });
    if (result.kind === 'unverified') return 'retry';
    if (result.kind === 'already-settled') {
      emit({ type: 'already-settled', paymentReference: entry.paymentReference, state: result.payment.state });
      return 'done';
    }
    // The gateway notifies when a payment resolves, and its query may lag behind: while the payment
    // stays open (or the ledger could not be written), the notification is asked for again (503).
    // A mismatch will not change by asking again.
    return result.kind === 'pending' && result.reason !== 'mismatch' ? 'retry' : 'done';
  }

  return async (notification) => {
    const entry = await findEntry(notification.candidates);
    if (!entry) {
      // The body is anyone's text: only something shaped like one of our references is repeated.
      const named = notification.candidates.find((candidate) => PAYMENT_REFERENCE.test(candidate));
      emit({ type: 'webhook-ignored', reason: 'unknown-reference', eventType: notification.eventType, reference: named });
      return 'done';
    }
    if (entry.state !== 'PENDING') {
      emit({ type: 'already-settled', paymentReference: entry.paymentReference, state: entry.state });
      return 'done';
    }
    const reference = entry.paymentReference;
    let running = verifying.get(reference);
    if (!running) {
      running = verify(entry).finally(() => verifying.delete(reference));
      verifying.set(reference, running);
    }
    return running;
  };
}

/**
 * `{ notificationItems: [{ notificationRequestItem: { eventType, data } }] }`, the item's key in
 * either capitalisation. Each item's candidate references are `data.reference`, then
 * `data.paymentReference`, then `data.externalReference`. Undefined for any other shape.
 */
function readNotifications(json: unknown): Notification[] | undefined {
  if (!isRecord(json) || !Array.isArray(json.notificationItems)) return undefined;
  const items = json.notificationItems;
  if (items.length === 0 || items.length > MAX_ITEMS) return undefined;
  const notifications: Notification[] = [];
  for (const item of items) {
    const inner = isRecord(item) ? (item.notificationRequestItem ?? item.NotificationRequestItem) : undefined;
    if (!isRecord(inner) || !isRecord(inner.data)) return undefined;
    const data = inner.data;
    const candidates = REFERENCE_FIELDS.map((field) => data[field]).filter(
      (value): value is string => typeof value === 'string' && value !== '' && value.length <= MAX_REFERENCE_LENGTH,
    );
    const eventType = typeof inner.eventType === 'string' && EVENT_TYPE.test(inner.eventType) ? inner.eventType : undefined;
    notifications.push({ eventType, candidates: [...new Set(candidates)] });
  }
  return notifications;
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
}
