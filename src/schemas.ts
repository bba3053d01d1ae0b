/**
 * The schemas of every message that crosses a wire, and the single source of their TypeScript types.
 * Written with `zod/mini` so the browser bundle only pays for the checks it uses; the server shares them.
 *
 * Field names follow spec/payment-initiation.md exactly, typos included (`ussdDailCode`, `providerreference`).
 */
import * as z from 'zod/mini';

export const PAYMENT_TYPES = ['USSD', 'TRANSFER'] as const;
export const paymentTypeSchema = z.enum(PAYMENT_TYPES);
export type PaymentType = z.infer<typeof paymentTypeSchema>;

/** Separators a customer may type inside a phone number; removed before it is checked or sent. */
const PHONE_SEPARATORS = /[\s().-]/g;

// ─── Customer fields: checked in the form and again on the server ────────────────────────────────

export const fullNameSchema = z.string().check(z.trim(), z.minLength(2), z.maxLength(100));
export const emailSchema = z.string().check(z.trim(), z.maxLength(254), z.email());
export const mobileNumberSchema = z.string().check(
  z.overwrite((value) => value.replace(PHONE_SEPARATORS, '')),
  z.regex(/^\+?\d{7,15}$/),
);
/** The spec: "a short digit string". */
export const bankCodeSchema = z.string().check(z.trim(), z.regex(/^\d{3,6}$/));

/** Field name → schema, so the form can check one field as the customer leaves it. */
export const customerFieldSchemas = {
  fullName: fullNameSchema,
  email: emailSchema,
  mobileNumber: mobileNumberSchema,
  bankCode: bankCodeSchema,
} as const;
export type CustomerField = keyof typeof customerFieldSchemas;

// ─── Widget → session endpoint (DESIGN.md, "The session-endpoint contract") ──────────────────────

const hints = {
  amount: z.optional(z.string().check(z.trim(), z.regex(/^\d+(\.\d{1,2})?$/))),
  currency: z.optional(z.string().check(z.trim(), z.regex(/^[A-Za-z]{3}$/))),
  country: z.optional(z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/))),
  paymentReference: z.optional(z.string().check(z.trim(), z.regex(/^[\w.:-]{1,64}$/))),
};

const customer = {
  fullName: fullNameSchema,
  email: emailSchema,
  mobileNumber: mobileNumberSchema,
};

export const ussdSessionRequestSchema = z.object({
  paymentType: z.literal('USSD'),
  ...customer,
  bankCode: bankCodeSchema,
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

// ─── Server → gateway (spec 2.1) ─────────────────────────────────────────────────────────────────

export const gatewayRequestSchema = z.object({
  publicKey: z.string().check(z.minLength(1)),
  amount: z.string().check(z.regex(/^\d+(\.\d+)?$/)),
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
});
export type GatewayRequest = z.infer<typeof gatewayRequestSchema>;

// ─── Gateway → server → widget (spec 2.2–2.4) ────────────────────────────────────────────────────

const text = z.string().check(z.minLength(1));

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

export const ussdPaymentsSchema = z.object({
  paymentReference: text,
  linkingReference: text,
  providerreference: text,
  /** `*` and `#` delimiters around digit groups, e.g. `*737*000*1234#`. */
  ussdDailCode: z.string().check(z.regex(/^\*\d+(\*\d+)*#$/)),
});
export type UssdPayments = z.infer<typeof ussdPaymentsSchema>;

export const transferPaymentsSchema = z.object({
  paymentReference: text,
  walletName: text,
  wallet: text,
  bankName: text,
  accountNumber: z.string().check(z.regex(/^\d{6,20}$/)),
});
export type TransferPayments = z.infer<typeof transferPaymentsSchema>;

export const paymentsSchemaByType = {
  USSD: ussdPaymentsSchema,
  TRANSFER: transferPaymentsSchema,
} as const;

// ─── Failures (DESIGN.md: `{ status: "ERROR", error: { code, message, fields? } }`) ─────────────

export const errorBodySchema = z.object({
  status: z.literal('ERROR'),
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

// ─── status-url (DESIGN.md: `GET status-url?paymentReference=…`) ─────────────────────────────────

export const PAYMENT_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;
export const statusResponseSchema = z.object({
  status: z.enum(PAYMENT_STATUSES),
  message: z.optional(z.nullable(z.string())),
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;
export type PaymentStatus = StatusResponse['status'];

// ─── Parsed instructions: what the widget shows and what `pay-initiated` carries ─────────────────

export type UssdInstructions = {
  paymentType: 'USSD';
  paymentReference: string;
  ussdDialCode: string;
  linkingReference: string;
  providerReference: string;
};
export type TransferInstructions = {
  paymentType: 'TRANSFER';
  paymentReference: string;
  accountNumber: string;
  bankName: string;
  walletName: string;
  wallet: string;
};
export type Instructions = UssdInstructions | TransferInstructions;

export type ReadEnvelopeResult =
  | { ok: true; instructions: Instructions; message: string | undefined }
  | { ok: false; reason: 'not-an-envelope' | 'not-success' | 'missing-fields'; message: string | undefined };

/**
 * Reads a gateway envelope for the given payment type. Extra fields are ignored; an envelope whose
 * `data.payments` lacks what the payment type needs is a failure, never a half-empty result.
 */
export function readEnvelope(body: unknown, paymentType: PaymentType): ReadEnvelopeResult {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) return { ok: false, reason: 'not-an-envelope', message: undefined };
  const message = envelope.data.data?.message?.trim() || undefined;
  if (envelope.data.status !== 'SUCCESS') return { ok: false, reason: 'not-success', message };

  const payments = envelope.data.data?.payments;
  if (paymentType === 'USSD') {
    const parsed = ussdPaymentsSchema.safeParse(payments);
    if (!parsed.success) return { ok: false, reason: 'missing-fields', message };
    const p = parsed.data;
    return {
      ok: true,
      message,
      instructions: {
        paymentType,
        paymentReference: p.paymentReference,
        ussdDialCode: p.ussdDailCode,
        linkingReference: p.linkingReference,
        providerReference: p.providerreference,
      },
    };
  }
  const parsed = transferPaymentsSchema.safeParse(payments);
  if (!parsed.success) return { ok: false, reason: 'missing-fields', message };
  const p = parsed.data;
  return {
    ok: true,
    message,
    instructions: {
      paymentType,
      paymentReference: p.paymentReference,
      accountNumber: p.accountNumber,
      bankName: p.bankName,
      walletName: p.walletName,
      wallet: p.wallet,
    },
  };
}
