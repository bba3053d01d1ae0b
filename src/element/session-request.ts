// What the element asks for and sends: the payment types on offer, the fields the chosen one asks
// for, and the session endpoint's body made of them.
import {
  HINT_PATTERNS,
  normalizeField,
  PAYMENT_TYPES,
  type CustomerField,
  type HintField,
  type PaymentType,
} from '../contract/rules.js';
import type { SessionRequest } from '../contract/schemas.js';
import type { Values } from './form-controller.js';

/** A property as text, whatever a framework set it to (`5000`, `null`). */
export const text = (value: unknown): string => (value == null ? '' : String(value));

/** The payment types on offer (USSD first), unknown names ignored; all of them when none is known. */
export function offeredTypes(list: string | readonly string[] | undefined): PaymentType[] {
  const wanted = (typeof list === 'string' ? list.split(/\s+/) : [...(list ?? [])]).map((type) =>
    text(type).toUpperCase(),
  );
  const offered = PAYMENT_TYPES.filter((type) => wanted.includes(type));
  return offered.length ? offered : [...PAYMENT_TYPES];
}

/** The fields a payment of `paymentType` asks for: the customer's, and for USSD their bank. */
export function fieldsFor(paymentType: PaymentType): CustomerField[] {
  return ['fullName', 'email', 'mobileNumber', ...(paymentType === 'USSD' ? (['bankCode'] as const) : [])];
}

/** The session-endpoint contract's body: normalized customer fields, and the merchant's hints that are well formed. */
export function sessionRequest(
  paymentType: PaymentType,
  values: Values,
  hints: Record<HintField, unknown>,
): SessionRequest {
  const request: Record<string, string> = { paymentType };
  for (const field of fieldsFor(paymentType)) request[field] = normalizeField(field, values[field]);
  for (const hint of ['amount', 'currency', 'country', 'paymentReference'] as const) {
    const value = normalizeField(hint, text(hints[hint]));
    if (HINT_PATTERNS[hint].test(value)) request[hint] = value;
  }
  return request as SessionRequest;
}
