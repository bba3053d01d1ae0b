// The zod schemas of every message that crosses a wire, and the TypeScript types inferred from them.
// They are built from the plain rules in rules.ts. The server validates with them; browser code
// imports only their types (`import type`), never their values, so zod stays out of its bundle.
//
// Field names follow the gateway's exactly, typos included (`ussdDailCode`, `providerreference`;
// docs/architecture.md, "Field names").
import * as z from 'zod/mini';
import {
  AMOUNT,
  FIELD_PATTERNS,
  HINT_PATTERNS,
  ORDER_PATTERNS,
  normalizeField,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  PAYMENTS_PATTERNS,
  STATUS_REASONS,
  type StatusReason,
  type CustomerField,
  type HintField,
  type PaymentStatus,
  type PaymentType,
} from './rules.js';

export {
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  STATUS_REASONS,
  type StatusReason,
  type CustomerField,
  type PaymentStatus,
  type PaymentType,
};
export const paymentTypeSchema = z.enum(PAYMENT_TYPES);

/** A string field normalized and checked exactly as the browser does it (see rules.ts). */
const field = (name: CustomerField | HintField) =>
  z.string().check(
    z.overwrite((value) => normalizeField(name, value)),
    z.regex(FIELD_PATTERNS[name]),
  );

/** An object of strings, each matching its pattern. */
const stringsMatching = <K extends string>(patterns: Record<K, RegExp>) => {
  const entries = Object.entries<RegExp>(patterns).map(([key, pattern]) => [key, z.string().check(z.regex(pattern))]);
  return z.object(Object.fromEntries(entries) as Record<K, z.ZodMiniString>);
};

// ─── Customer fields: checked in the form and again on the server ────────────────────────────────

export const fullNameSchema = field('fullName');
export const emailSchema = field('email');
export const mobileNumberSchema = field('mobileNumber');
export const bankCodeSchema = field('bankCode');

/** Field name → schema. */
export const customerFieldSchemas = {
  fullName: fullNameSchema,
  email: emailSchema,
  mobileNumber: mobileNumberSchema,
  bankCode: bankCodeSchema,
} as const;

// ─── Widget → session endpoint (docs/own-back-end.md, "The session-endpoint contract") ───────────

const hints = {
  amount: z.optional(field('amount')),
  currency: z.optional(field('currency')),
  country: z.optional(field('country')),
  paymentReference: z.optional(field('paymentReference')),
};

const { bankCode, ...customer } = customerFieldSchemas;

export const ussdSessionRequestSchema = z.object({
  paymentType: z.literal('USSD'),
  ...customer,
  bankCode,
  ...hints,
});

export const transferSessionRequestSchema = z.object({
  paymentType: z.literal('TRANSFER'),
  ...customer,
  ...hints,
});

export const sessionRequestSchema = z.discriminatedUnion('paymentType', [
  ussdSessionRequestSchema,
  transferSessionRequestSchema,
]);
export type SessionRequest = z.infer<typeof sessionRequestSchema>;

// ─── Server → gateway (docs/architecture.md, "The initiation") ───────────────────────────────────

/** A TRANSFER account's `walletDaysActive`: a whole number of days, 1 to 999, as a string. */
export const WALLET_DAYS_ACTIVE = /^[1-9]\d{0,2}$/;

/**
 * An amount to charge, as the order resolver returns it and the gateway receives it: the amount
 * hint's pattern (digits, at most two decimals), not trimmed, and above zero.
 */
export const chargeAmountSchema = z.string().check(
  z.regex(HINT_PATTERNS.amount),
  z.refine((value) => Number(value) > 0),
);

export const gatewayRequestSchema = z.object({
  publicKey: z.string().check(z.minLength(1)),
  amount: chargeAmountSchema,
  fullName: z.string(),
  mobileNumber: z.string(),
  email: z.string(),
  currency: z.string().check(z.minLength(1)),
  country: z.string().check(z.minLength(1)),
  paymentReference: z.string().check(z.minLength(1)),
  callbackUrl: z.url(),
  redirectUrl: z.url(),
  paymentType: paymentTypeSchema,
  bankCode: z.optional(z.string()),
  /** TRANSFER only (docs/architecture.md): the account takes exactly `amount`. */
  amountControl: z.optional(z.literal('FIXEDAMOUNT')),
  /** TRANSFER only (docs/architecture.md): how many days the account stays open, as a digit string (the apps send `"1"`). */
  walletDaysActive: z.optional(z.string().check(z.regex(WALLET_DAYS_ACTIVE))),
  /** `true` on every initiation of a reference after its first (docs/architecture.md, "The initiation"). */
  retry: z.optional(z.boolean()),
});
export type GatewayRequest = z.infer<typeof gatewayRequestSchema>;

// ─── Gateway → server → widget (docs/architecture.md, "Field names") ─────────────────────────────

/** Enough of the envelope to read its outcome and message, whatever the payment type. */
export const envelopeSchema = z.object({
  status: z.string(),
  data: z.optional(
    z.nullable(
      z.object({
        code: z.optional(z.nullable(z.string())),
        message: z.optional(z.nullable(z.string())),
        payments: z.optional(z.unknown()),
      }),
    ),
  ),
});
export type Envelope = z.infer<typeof envelopeSchema>;

export const ussdPaymentsSchema = stringsMatching(PAYMENTS_PATTERNS.USSD);
export type UssdPayments = z.infer<typeof ussdPaymentsSchema>;

export const transferPaymentsSchema = stringsMatching(PAYMENTS_PATTERNS.TRANSFER);
export type TransferPayments = z.infer<typeof transferPaymentsSchema>;

/** Our one member beside the envelope in the session endpoint's success body: what the server charges. */
export const orderSchema = z.object({
  ...stringsMatching(ORDER_PATTERNS).shape,
  amount: chargeAmountSchema,
  statusToken: z.optional(z.string().check(z.minLength(1))),
  /** Where to poll the status, resolved against `session-url`; polled when the element has no `status-url`. */
  statusUrl: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  /** The part of `amount` that is a fee, in the same form. */
  fee: z.optional(z.string().check(z.regex(HINT_PATTERNS.amount))),
  /** TRANSFER: until when the customer is told the account is valid, ISO 8601 in UTC (`Date.parse` reads it). */
  expiresAt: z.optional(z.iso.datetime()),
  /**
   * With `expiresAt`: the time left, in ms, as the server's clock measured it when it answered. The
   * widget counts down from it with a monotonic clock, never the phone's (which may be hours off).
   */
  expiresInMs: z.optional(z.number().check(z.nonnegative())),
});
export type Order = z.infer<typeof orderSchema>;

// ─── Failures (docs/own-back-end.md: `{ status: "ERROR", error: { code, message, fields? } }`) ───

export const errorBodySchema = z.object({
  status: z.literal('ERROR'),
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
    /** `false`: Try again cannot help (the request, the order or the merchant's setup must change). */
    retryable: z.optional(z.boolean()),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

// ─── status-url (docs/own-back-end.md: `GET status-url?paymentReference=…`) ──────────────────────

export const statusResponseSchema = z.object({
  status: z.enum(PAYMENT_STATUSES),
  message: z.optional(z.nullable(z.string())),
  /** What the server charges (the ledger's amount), as in the session's `order`. */
  amount: z.optional(z.string()),
  currency: z.optional(z.string()),
  /**
   * Present when the customer must hear more than the status: one of `STATUS_REASONS` (or a code of
   * a merchant's own, which the widget ignores).
   */
  reason: z.optional(z.string().check(z.regex(/^[a-z][a-z0-9-]{0,63}$/))),
  /** With `amount-mismatch`, when known: what the gateway reported received, in `currencyReceived` if given, else `currency`. */
  amountReceived: z.optional(z.string().check(z.regex(AMOUNT))),
  currencyReceived: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/))),
  /** The server's clock when it answered, ISO 8601 in UTC: a resumed countdown reads `expiresAt` against it. */
  now: z.optional(z.iso.datetime()),
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;

// ─── Parsed instructions: what the widget shows and what `pay-initiated` carries ─────────────────

export type { Instructions, TransferInstructions, UssdInstructions } from './envelope.js';
export { readEnvelope, type ReadEnvelopeResult } from './envelope.js';
