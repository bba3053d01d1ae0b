import { isJsonContentType } from '../wire/json-content-type.js';
import { PAYMENT_REFERENCE } from '../rules.js';
import type { Gateway, QueryOutcome } from './gateway.js';
import { readBodyText } from './http/body.js';
import { withDeadline } from './http/deadline.js';
import { createEmitter } from './http/emitter.js';
import { isRecord, parseJson } from './http/json.js';
import { errorReply, jsonReply, toResponse, type Reply } from './http/reply.js';
import { settlePayment, type PaymentHook, type SettleEvent, type SettleResult } from './settle.js';
import type { Payment, PaymentStore } from './stores.js';

/**
 * The gateway's notification (spec/gateway-companion.md §3) only names a reference: anyone can post
 * it, and it is not signed. The handler finds the payment in the ledger, asks the gateway what
 * became of it (`gateway.query`), and settles it through the one transition (`settlePayment`), so
 * `onPaid` runs once per reference however often and however concurrently the notification comes.
 */

export type WebhookEvent =
  | { type: 'webhook-rejected'; status: number; reason: 'method' | 'content-type' | 'too-large' | 'slow-body' | 'malformed' }
  /**
   * No candidate reference names a ledger entry: answered 200 so the gateway stops, and reported.
   * `reference` is the first candidate shaped like a payment reference, if any.
   */
  | { type: 'webhook-ignored'; reason: 'unknown-reference'; eventType: string | undefined; reference: string | undefined }
  | { type: 'verified'; paymentReference: string; state: Payment['state']; code: string }
  /** The query did not answer in time or at all: answered 503 so the gateway delivers again. */
  | { type: 'unverified'; paymentReference: string; reason: string; httpStatus?: number }
  | { type: 'already-settled'; paymentReference: string; state: Payment['state'] }
  | SettleEvent;

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

type Notification = { eventType: string | undefined; candidates: string[] };
type Verdict = 'done' | 'retry';

export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  assertOptions(options);
  const verifyTimeoutMs = options.verifyTimeoutMs ?? 3_000;
  const emit = createEmitter(options.onEvent);
  // Duplicates arriving together share one verification: one query, one settlement attempt.
  const verifying = new Map<string, Promise<Verdict>>();

  async function handle(request: Request): Promise<Reply> {
    if (request.method !== 'POST') return reject('method', errorReply('method_not_allowed', 'Use POST.', { headers: { allow: 'POST' } }));
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return reject('content-type', errorReply('unsupported_media_type', 'Send the notification as application/json.'));
    }
    // The body's arrival counts against the same budget as the verification: the gateway waits 5 s in all.
    const body = await readBodyText(request, MAX_BODY_BYTES, verifyTimeoutMs);
    if (!body.ok && body.reason === 'too-large') {
      return reject('too-large', errorReply('payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes.`));
    }
    if (!body.ok && body.reason === 'timeout') {
      return reject('slow-body', errorReply('request_timeout', 'The notification body took too long to arrive.'));
    }
    const notifications = body.ok ? readNotifications(body.text) : undefined;
    if (!notifications) return reject('malformed', errorReply('invalid_json', 'The body is not a gateway notification.'));

    const verdicts = await Promise.all(notifications.map(handleNotification));
    if (verdicts.includes('retry')) return errorReply('server_busy', 'The payment could not be verified yet; deliver it again.');
    const ack = request.headers.get('x-expected-ack-reference');
    return jsonReply(200, { ackReference: ack !== null && ACK_REFERENCE.test(ack) ? ack : `ack-${crypto.randomUUID()}`, status: 'received' });
  }

  function reject(reason: Extract<WebhookEvent, { type: 'webhook-rejected' }>['reason'], reply: Reply): Reply {
    emit({ type: 'webhook-rejected', status: reply.status, reason });
    return reply;
  }

  async function handleNotification(notification: Notification): Promise<Verdict> {
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
  }

  async function findEntry(candidates: string[]): Promise<Payment | undefined> {
    for (const candidate of candidates) {
      const entry = await options.payments.get(candidate);
      if (entry) return entry;
    }
    return undefined;
  }

  async function verify(entry: Payment): Promise<Verdict> {
    const reference = entry.paymentReference;
    const outcome = await queryWithin(options.gateway, reference, verifyTimeoutMs);
    if (outcome.kind !== 'answer') {
      emit({ type: 'unverified', paymentReference: reference, reason: outcome.reason, ...(outcome.httpStatus ? { httpStatus: outcome.httpStatus } : {}) });
      return 'retry';
    }
    emit({ type: 'verified', paymentReference: reference, state: outcome.state, code: outcome.code });
    const result: SettleResult = await settlePayment(entry, outcome, {
      payments: options.payments,
      onPaid: options.onPaid,
      onFailed: options.onFailed,
      emit,
    });
    if (result.kind === 'already-settled') {
      emit({ type: 'already-settled', paymentReference: reference, state: result.payment.state });
      return 'done';
    }
    // The gateway notifies when a payment resolves, and its query may lag behind: while the payment
    // stays open (or the ledger could not be written), the notification is asked for again (503).
    // A mismatch will not change by asking again.
    return result.kind === 'pending' && result.reason !== 'mismatch' ? 'retry' : 'done';
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

/** The gateway's answer, or `timeout` once `ms` passed, even from a `query` that ignores its signal. */
function queryWithin(gateway: Pick<Gateway, 'query'>, reference: string, ms: number): Promise<QueryOutcome> {
  return withDeadline<QueryOutcome>(
    ms,
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

/**
 * `{ notificationItems: [{ notificationRequestItem: { eventType, data } }] }`, the item's key in
 * either capitalisation. Each item's candidate references are `data.reference`, then
 * `data.paymentReference`, then `data.externalReference`. Undefined for any other shape.
 */
function readNotifications(text: string): Notification[] | undefined {
  const json = parseJson(text);
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
  const fail = (problem: string) => {
    throw new TypeError(`createWebhookHandler: ${problem}`);
  };
  if (!options) fail('options are required');
  if (typeof options.gateway?.query !== 'function') fail('gateway must have a query function (createGateway)');
  const payments = options.payments;
  if (typeof payments?.get !== 'function' || typeof payments.update !== 'function') fail('payments must be a PaymentStore (get, insert, update)');
  if (typeof options.onPaid !== 'function') fail('onPaid must be a function');
  if (options.onFailed !== undefined && typeof options.onFailed !== 'function') fail('onFailed must be a function');
  const timeout = options.verifyTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)) {
    fail('verifyTimeoutMs must be a positive finite number');
  }
}
