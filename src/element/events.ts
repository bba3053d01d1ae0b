import type { PaymentStatus, StatusReview } from '../contract/rules.js';
import type { Instructions, PaymentType, SessionRequest } from '../contract/schemas.js';

export const PAY_ERROR_CODES = [
  'validation',
  'network',
  'timeout',
  'http',
  'gateway',
  'invalid-response',
  'config',
  /** A script-tag file (pay-widget.<name>.js) is not served: serve all of dist/; inlined, set data-files-url. */
  'setup',
] as const;
export type PayErrorCode = (typeof PAY_ERROR_CODES)[number];

/** Every event's detail names the payment type and, once the gateway has given it, the reference. */
export type PayEventBase = { paymentType: PaymentType; paymentReference?: string };

export type PayReadyDetail = PayEventBase;
export type PayTypeChangeDetail = PayEventBase;
export type PaySubmitDetail = PayEventBase & { request: SessionRequest };
/** The server's charge, from the session's `order`; absent when the endpoint did not say. */
export type PayAmount = { amount?: string; currency?: string };

export type PayInitiatedDetail = Instructions & PayAmount;
export type PayCopyDetail = PayEventBase & { field: string; value: string };
/**
 * `reason` (with `amountReceived` and `currencyReceived` when known) when the status answer gave one:
 * `amount-mismatch` (status PENDING, or FAILED: not paid, a person at the shop settles it) or
 * `after-expiry` (SUCCESS, paid after the time to pay had run out).
 */
export type PayCompleteDetail = PayEventBase &
  PayAmount &
  Partial<StatusReview> & {
    status: PaymentStatus;
    message: string | undefined;
  };
export type PayErrorDetail = PayEventBase & { code: PayErrorCode; message: string; retryable: boolean };
export type PayResetDetail = PayEventBase;
/**
 * An attempt kept from before a reload shown again. `status` and `reason` are no longer set (issue 35): how it
 * ended, if it did, comes in `pay-complete` once `status-url` says.
 */
export type PayResumedDetail = PayEventBase &
  PayAmount &
  Partial<StatusReview> & { paymentReference: string; status?: PaymentStatus };

export type PayEventMap = {
  'pay-ready': CustomEvent<PayReadyDetail>;
  'pay-type-change': CustomEvent<PayTypeChangeDetail>;
  'pay-submit': CustomEvent<PaySubmitDetail>;
  'pay-initiated': CustomEvent<PayInitiatedDetail>;
  'pay-copy': CustomEvent<PayCopyDetail>;
  'pay-complete': CustomEvent<PayCompleteDetail>;
  'pay-error': CustomEvent<PayErrorDetail>;
  'pay-reset': CustomEvent<PayResetDetail>;
  'pay-resumed': CustomEvent<PayResumedDetail>;
};
export type PayEventName = keyof PayEventMap;
export type PayEventDetail<K extends PayEventName> = PayEventMap[K]['detail'];

declare global {
  interface GlobalEventHandlersEventMap extends PayEventMap {}
}

/** Fires a pay-* event as docs/element.md describes them: bubbling, composed, cancelable only when asked. */
export function emit<K extends PayEventName>(
  target: EventTarget,
  name: K,
  detail: PayEventDetail<K>,
  cancelable = false,
): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
}
