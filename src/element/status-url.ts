// Where a payment's status is asked: the page's `status-url`, else the session answer's
// `order.statusUrl` resolved against `session-url`.
import type { Order } from '../contract/schemas.js';

/** The element's `status-url` and `session-url`. */
export type Endpoints = { statusUrl: string | undefined; sessionUrl: string | undefined };

export function statusUrlOf(order: Order | undefined, { statusUrl, sessionUrl }: Endpoints): string | undefined {
  if (statusUrl) return statusUrl;
  if (!order?.statusUrl || !sessionUrl) return undefined;
  try {
    return new URL(order.statusUrl, new URL(sessionUrl, document.baseURI)).href;
  } catch {
    return undefined;
  }
}
