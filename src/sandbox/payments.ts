// The sandbox's payments: made from an accepted initiation with unique numbers (dial number,
// account, wallet, references), kept by paymentReference, and settled by `setStatus`. At most
// `maxPayments` are kept: the one settled longest ago is forgotten first, a pending one only when
// every payment kept is pending (then the oldest).
import type { GatewayRequest } from '../contract/schemas.js';
import { transferEnvelope, ussdEnvelope, type SandboxPaymentRecord, type SuccessEnvelope } from './answers.js';
import { ussdDialCode } from './ussd-short-codes.js';

export type SandboxPayment = SandboxPaymentRecord & { envelope: SuccessEnvelope };

export type PaymentBook = {
  get(paymentReference: string): SandboxPayment | undefined;
  /** A new PENDING payment with the answer the gateway gives for it. */
  create(body: GatewayRequest): SandboxPayment;
  /** Marks the payment paid or failed; undefined when the reference is unknown. */
  settle(paymentReference: string, status: 'SUCCESS' | 'FAILED', message: string): SandboxPayment | undefined;
};

type PaymentBookOptions = {
  merchantName: string;
  bankName: string;
  random: () => number;
  now: () => number;
  maxPayments: number;
};

export function createPaymentBook(options: PaymentBookOptions): PaymentBook {
  // Both in insertion order: payments by creation, settled references by settlement.
  const payments = new Map<string, SandboxPayment>();
  const settled = new Set<string>();
  // A counter behind every number keeps them unique; the random offset keeps them from looking sequential from 1.
  const offset = Math.floor(options.random() * 8000);
  let sequence = 0;

  function nextNumbers() {
    sequence += 1;
    const n = offset + sequence;
    return {
      dialNumber: String(1000 + (n % 9_000_000)),
      accountNumber: `90${String(n % 1e8).padStart(8, '0')}`,
      wallet: `80${String((n * 7 + 13) % 1e8).padStart(8, '0')}`,
      reference: `${Date.now().toString(36).toUpperCase()}${String(n).padStart(8, '0')}`,
    };
  }

  function envelopeFor(body: GatewayRequest): SuccessEnvelope {
    const numbers = nextNumbers();
    return body.paymentType === 'USSD'
      ? ussdEnvelope({
          paymentReference: body.paymentReference,
          linkingReference: `LNK${numbers.reference}`,
          providerreference: `PRV${numbers.reference}`,
          ussdDailCode: ussdDialCode(body.bankCode!, numbers.dialNumber),
        })
      : transferEnvelope({
          paymentReference: body.paymentReference,
          amount: Number(body.amount),
          walletName: `${options.merchantName} / ${body.fullName}`,
          wallet: numbers.wallet,
          bankName: options.bankName,
          accountNumber: numbers.accountNumber,
        });
  }

  function makeRoom(): void {
    while (payments.size >= options.maxPayments) {
      const oldest = settled.values().next().value ?? payments.keys().next().value!;
      settled.delete(oldest);
      payments.delete(oldest);
    }
  }

  return {
    get: (paymentReference) => payments.get(paymentReference),
    create(body) {
      makeRoom();
      const time = options.now();
      const payment: SandboxPayment = {
        paymentReference: body.paymentReference,
        paymentType: body.paymentType,
        amount: body.amount,
        currency: body.currency,
        country: body.country,
        fullName: body.fullName,
        email: body.email,
        mobileNumber: body.mobileNumber,
        envelope: envelopeFor(body),
        status: 'PENDING',
        message: undefined,
        createdAt: time,
        updatedAt: time,
      };
      payments.set(body.paymentReference, payment);
      return payment;
    },
    settle(paymentReference, status, message) {
      const payment = payments.get(paymentReference);
      if (!payment) return undefined;
      payment.status = status;
      payment.message = message;
      payment.updatedAt = options.now();
      settled.delete(paymentReference);
      settled.add(paymentReference);
      return payment;
    },
  };
}
