// Reading the gateway's notification (docs/architecture.md, "The notification"): which references each item
// names, and its event type. Nothing else in it is believed: the body is anyone's text.
import { isRecord } from '../../contract/json.js';

/** One item of a notification: its candidate references, best first, and its event type if sane. */
export type Notification = { eventType: string | undefined; candidates: string[] };

/** A notification naming more payments than this is not one the gateway sends. */
const MAX_ITEMS = 50;
const MAX_REFERENCE_LENGTH = 200;
/** `transaction`, `transaction.wallet`, `refund`, …: anything else is not repeated to `onEvent`. */
const EVENT_TYPE = /^[\w.-]{1,60}$/;
const REFERENCE_FIELDS = ['reference', 'paymentReference', 'externalReference'] as const;

/**
 * `{ notificationItems: [{ notificationRequestItem: { eventType, data } }] }`, the item's key in
 * either capitalisation. Each item's candidate references are `data.reference`, then
 * `data.paymentReference`, then `data.externalReference`. Undefined for any other shape.
 */
export function readNotifications(json: unknown): Notification[] | undefined {
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
    const eventType =
      typeof inner.eventType === 'string' && EVENT_TYPE.test(inner.eventType) ? inner.eventType : undefined;
    notifications.push({ eventType, candidates: [...new Set(candidates)] });
  }
  return notifications;
}
