/**
 * What the two same-form contenders share with each other (and, through its strings and bank list,
 * with <pay-widget>): the amount as the widget formats it, the session request it sends, and the
 * reading of the dial code from the answer. No validation, no error screens: the floor.
 */
import { DEFAULT_BANKS } from '../../src/element/banks.js';
import { en } from '../../src/element/messages/en.js';
import { enAfterSubmit } from '../../src/element/messages/en-after-submit.js';
import { enTransfer } from '../../src/element/messages/en-transfer.js';

export { DEFAULT_BANKS as banks };

/** The English strings the contenders show: the widget's form's and its result screens'. */
export const m = { ...en, ...enAfterSubmit, ...enTransfer };

export const PAYMENT_TYPES = ['USSD', 'TRANSFER'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** The text inputs, in the widget's order: name, `type`, `autocomplete`, `inputmode`. */
export const TEXT_FIELDS = [
  ['fullName', 'text', 'name', 'text'],
  ['email', 'email', 'email', 'email'],
  ['mobileNumber', 'tel', 'tel', 'tel'],
] as const;

export function formatAmount(amount: string, currency: string): string {
  const value = Number(amount);
  if (!amount || !Number.isFinite(value)) return '';
  return new Intl.NumberFormat('en-NG', { style: 'currency', currency }).format(value);
}

export type Result = { dialCode: string; paymentReference: string; bankName: string; amount: string };

/** Posts the form as the widget's session request and reads the dial code from the envelope. */
export async function pay(
  url: string,
  form: HTMLFormElement,
  paymentType: PaymentType,
  amount: string,
): Promise<Result> {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  const request: Record<string, string> = {
    paymentType,
    fullName: text('fullName'),
    email: text('email'),
    mobileNumber: text('mobileNumber').replace(/[\s().-]/g, ''),
  };
  if (paymentType === 'USSD') request.bankCode = text('bankCode');
  Object.assign(request, { amount, currency: 'NGN', country: 'NG' });
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify(request),
    credentials: 'same-origin',
  });
  const payments = JSON.parse(await response.text()).data.payments;
  return {
    dialCode: payments.ussdDailCode,
    paymentReference: payments.paymentReference,
    bankName: DEFAULT_BANKS.find((bank) => bank.code === request.bankCode)?.name ?? '',
    amount: formatAmount(amount, 'NGN'),
  };
}
