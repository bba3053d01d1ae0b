import type { PaymentType } from '../schemas.js';
import type { FieldErrors } from './errors.js';

/**
 * What `onEvent` receives: enough to log and alert on, never the access token, the public key or
 * the customer's details.
 */
export type SessionEvent =
  | { type: 'rejected'; status: number; code: string; fields?: FieldErrors }
  | {
      type: 'gateway';
      outcome: 'success' | 'declined' | 'http-error' | 'missing-fields' | 'unreadable' | 'timeout' | 'unreachable';
      paymentType: PaymentType;
      paymentReference: string;
      amount: string;
      currency: string;
      durationMs: number;
      httpStatus?: number;
      /** The gateway's message, or the network error code (`ECONNREFUSED`, …). */
      detail?: string;
    }
  | { type: 'replayed'; idempotencyKey: string; status: number }
  | { type: 'internal-error'; where: 'order' | 'token' | 'store' | 'handler'; detail: string };

export type SessionEventListener = (event: SessionEvent) => void | Promise<void>;

/** A logging hook must never break a payment: its throws and rejections are swallowed. */
export function createEmitter(listener: SessionEventListener | undefined): (event: SessionEvent) => void {
  if (!listener) return () => {};
  return (event) => {
    try {
      const result = listener(event);
      if (result && typeof result.then === 'function') result.then(undefined, () => {});
    } catch {
      // ignored on purpose, see above
    }
  };
}
