// Reads the gateway's response envelope into the instructions the widget shows (its field names:
// docs/architecture.md, "Field names").
// Zod-free so the browser can afford it; the server uses the same reader for the gateway's answers.
import { matchesPatterns, PAYMENTS_PATTERNS, type PaymentType } from './rules.js';

/** `data.payments` of each payment type, as the gateway spells it (docs/architecture.md, "Field names"). */
type PaymentsOf<T extends PaymentType> = Record<keyof (typeof PAYMENTS_PATTERNS)[T], string>;

/** The instructions the widget shows and `pay-initiated` carries: the spec's fields, typos fixed. */
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

type LooseEnvelope = { status?: unknown; data?: { message?: unknown; payments?: unknown } | null };

/**
 * Extra fields are ignored; an envelope whose `data.payments` lacks what the payment type needs is a
 * failure that keeps the gateway's message, never a half-empty result.
 */
export function readEnvelope(body: unknown, paymentType: PaymentType): ReadEnvelopeResult {
  const envelope = asEnvelope(body);
  const data = dataOf(envelope);
  const message = messageOf(data);
  if (typeof envelope.status !== 'string') return { ok: false, reason: 'not-an-envelope', message };
  if (envelope.status !== 'SUCCESS') return { ok: false, reason: 'not-success', message };

  const payments = data?.payments;
  if (!matchesPatterns(payments, PAYMENTS_PATTERNS[paymentType])) {
    return { ok: false, reason: 'missing-fields', message };
  }
  return { ok: true, message, instructions: toInstructions(paymentType, payments) };
}

/** The spec's payments fields, renamed for the widget's events (the spec's typos stay on the wire). */
function toInstructions(paymentType: PaymentType, payments: unknown): Instructions {
  if (paymentType === 'USSD') {
    const p = payments as PaymentsOf<'USSD'>;
    return {
      paymentType,
      paymentReference: p.paymentReference,
      ussdDialCode: p.ussdDailCode,
      linkingReference: p.linkingReference,
      providerReference: p.providerreference,
    };
  }
  const p = payments as PaymentsOf<'TRANSFER'>;
  return {
    paymentType,
    paymentReference: p.paymentReference,
    accountNumber: p.accountNumber,
    bankName: p.bankName,
    walletName: p.walletName,
    wallet: p.wallet,
  };
}

/** `data.message`, trimmed, from anything shaped like the envelope (a gateway's error body too). */
export function envelopeMessage(body: unknown): string | undefined {
  return messageOf(dataOf(asEnvelope(body)));
}

function messageOf(data: { message?: unknown } | undefined): string | undefined {
  return (typeof data?.message === 'string' && data.message.trim()) || undefined;
}

function asEnvelope(body: unknown): LooseEnvelope {
  return (typeof body === 'object' && body !== null ? body : {}) as LooseEnvelope;
}

function dataOf(envelope: LooseEnvelope): { message?: unknown; payments?: unknown } | undefined {
  return typeof envelope.data === 'object' && envelope.data !== null ? envelope.data : undefined;
}
