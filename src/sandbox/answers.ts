import type { PaymentType } from '../schemas.js';

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

export type UssdPaymentsBody = {
  paymentReference: string;
  linkingReference: string;
  providerreference: string;
  ussdDailCode: string;
};

export type TransferPaymentsBody = {
  paymentReference: string;
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

/** Magic amount 422: a SUCCESS envelope that keeps only the reference. */
export function incompleteEnvelope(paymentType: PaymentType, paymentReference: string) {
  return {
    status: 'SUCCESS',
    data: { code: paymentType === 'USSD' ? null : '00', message: 'Payment details unavailable', payments: { paymentReference } },
  };
}
