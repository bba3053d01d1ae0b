import type { PaymentType } from '../contract/schemas.js';

/** The gateway's answers as the spec shows them (2.2–2.4); failures in the same envelope. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function failure(
  httpStatus: number,
  message: string,
  options: { status?: string; code?: string; headers?: Record<string, string> } = {},
): Response {
  const body = {
    status: options.status ?? 'ERROR',
    data: { code: options.code ?? String(httpStatus), message, payments: null },
  };
  return json(httpStatus, body, options.headers);
}

type UssdPaymentsBody = {
  paymentReference: string;
  linkingReference: string;
  providerreference: string;
  ussdDailCode: string;
};

type TransferPaymentsBody = {
  paymentReference: string;
  /** The amount the account takes, a number as in the gateway's published example (OAPI `InitiateTransferResponse`). */
  amount: number;
  walletName: string;
  wallet: string;
  bankName: string;
  accountNumber: string;
};

export type SuccessEnvelope =
  | { status: 'SUCCESS'; data: { code: null; message: null; payments: UssdPaymentsBody } }
  | { status: 'SUCCESS'; data: { code: '00'; message: string; payments: TransferPaymentsBody } };

export function ussdEnvelope(payments: UssdPaymentsBody): SuccessEnvelope {
  return { status: 'SUCCESS', data: { code: null, message: null, payments } };
}

export function transferEnvelope(payments: TransferPaymentsBody): SuccessEnvelope {
  return { status: 'SUCCESS', data: { code: '00', message: 'Account opened successfully', payments } };
}

/** §4's duplicate reference as `initiates` answers it: a 200 SUCCESS envelope with code `S18` and no payment. */
export function duplicateReferenceEnvelope() {
  return { status: 'SUCCESS', data: { code: 'S18', payments: {}, message: 'Transaction reference must be unique' } };
}

/** Magic amount 422: a SUCCESS envelope that keeps only the reference. */
export function incompleteEnvelope(paymentType: PaymentType, paymentReference: string) {
  return {
    status: 'SUCCESS',
    data: {
      code: paymentType === 'USSD' ? null : '00',
      message: 'Payment details unavailable',
      payments: { paymentReference },
    },
  };
}

/** §1's success answer: the token under `data.EncryptedSecKey.encryptedKey`. */
export function tokenAnswerBody(token: string) {
  return { status: 'SUCCESS', data: { code: '00', message: 'Successful', EncryptedSecKey: { encryptedKey: token } } };
}

/** §1 and §2's `{ message, error }` error family (encrypt/keys refusals, an unknown query reference). */
export function labelledError(httpStatus: number, message: string, error: string): Response {
  return json(httpStatus, { message, error });
}

/** What the sandbox knows of a payment, enough for the query's answer and the webhook's. */
export type SandboxPaymentRecord = {
  paymentReference: string;
  paymentType: PaymentType;
  amount: string;
  currency: string;
  country: string;
  fullName: string;
  email: string;
  mobileNumber: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  message: string | undefined;
  createdAt: number;
  updatedAt: number;
};

/** The gateway's code for each state (§2): `00` paid, `S20` pending, `S12` failed. */
const CODES = { SUCCESS: '00', PENDING: 'S20', FAILED: 'S12' } as const;
const CODE_MESSAGES = {
  SUCCESS: 'Successful',
  PENDING: 'Transaction is pending',
  FAILED: 'Transaction Failed',
} as const;

/** §2's query answer: the envelope says SUCCESS whatever the payment's state; `data.code` decides. */
export function queryAnswerBody(payment: SandboxPaymentRecord) {
  const code = CODES[payment.status];
  const amount = Number(payment.amount);
  return {
    status: 'SUCCESS',
    data: {
      code,
      message: CODE_MESSAGES[payment.status],
      payments: {
        paymentReference: payment.paymentReference,
        amount,
        currency: payment.currency,
        paymentType: payment.paymentType,
        gatewayCode: code,
        gatewayMessage: payment.message ?? CODE_MESSAGES[payment.status],
        reason: CODE_MESSAGES[payment.status],
        fee: '0.00',
        paymentBreakdown: { amount, fee: 0, total: amount },
      },
      customers: { customerName: payment.fullName, customerEmail: payment.email, customerMobile: payment.mobileNumber },
    },
  };
}

/** §3's notification of a `transaction` event, as MINT webhook-events.mdx §7 lays it out. */
export function notificationBody(payment: SandboxPaymentRecord, publicKey: string, eventId: string) {
  const code = CODES[payment.status];
  return {
    notificationItems: [
      {
        notificationRequestItem: {
          eventType: 'transaction',
          eventDate: gatewayDate(payment.updatedAt),
          eventId,
          data: {
            reference: payment.paymentReference,
            amount: Number(payment.amount),
            currency: payment.currency,
            code,
            gatewayCode: code,
            gatewayMessage: payment.message ?? CODE_MESSAGES[payment.status],
            reason: CODE_MESSAGES[payment.status],
            paymentType: payment.paymentType,
            publicKey,
            fee: '0.00',
            fullname: payment.fullName,
            email: payment.email,
            mobile: payment.mobileNumber,
            country: payment.country,
            createdAt: gatewayDate(payment.createdAt),
            updatedAt: gatewayDate(payment.updatedAt),
          },
        },
      },
    ],
  };
}

/** `2025-03-01 10:15:02`, in UTC. */
function gatewayDate(time: number): string {
  return new Date(time).toISOString().slice(0, 19).replace('T', ' ');
}
