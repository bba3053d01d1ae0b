// The widget's request body checked against the session-endpoint contract, each bad field named.
import {
  PAYMENT_TYPES,
  transferSessionRequestSchema,
  ussdSessionRequestSchema,
  type PaymentType,
  type SessionRequest,
} from '../../contract/schemas.js';
import type { FieldErrors } from '../http/reply.js';

type SessionRequestCheck = { ok: true; request: SessionRequest } | { ok: false; fields: FieldErrors };

const FIELD_MESSAGES: Record<string, string> = {
  paymentType: `Choose one of ${PAYMENT_TYPES.join(', ')}.`,
  fullName: 'Enter a full name of 2 to 100 characters.',
  email: 'Enter a valid e-mail address.',
  mobileNumber: 'Enter a mobile number of 7 to 15 digits, optionally starting with +.',
  bankCode: 'Choose a bank (a code of 3 to 6 digits).',
  amount: 'Enter an amount such as 1500 or 1500.50.',
  currency: 'Use a three-letter currency code such as NGN.',
  country: 'Use a two-letter country code such as NG.',
  paymentReference: 'Use up to 64 letters, digits, or . _ : - for the payment reference.',
};

/**
 * Checks a parsed JSON body against the session-endpoint contract and names every bad field.
 * A `bankCode` sent with TRANSFER is dropped by the TRANSFER schema, so it can never be forwarded.
 */
export function validateSessionRequest(body: unknown): SessionRequestCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, fields: { body: 'Send a JSON object.' } };
  }
  const paymentType = (body as { paymentType?: unknown }).paymentType;
  if (!isPaymentType(paymentType)) return { ok: false, fields: { paymentType: FIELD_MESSAGES.paymentType! } };

  const schema = paymentType === 'USSD' ? ussdSessionRequestSchema : transferSessionRequestSchema;
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };

  const fields: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'body');
    const missing = (body as Record<string, unknown>)[field] === undefined;
    fields[field] ??= missing ? 'This field is required.' : (FIELD_MESSAGES[field] ?? issue.message);
  }
  return { ok: false, fields };
}

function isPaymentType(value: unknown): value is PaymentType {
  return (PAYMENT_TYPES as readonly unknown[]).includes(value);
}
