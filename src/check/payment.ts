// One payment started through the merchant's session endpoint, read as the widget reads it: the
// spec's envelope with the payment type's fields, plus `order`. The checks that need a payment
// start one here; a session endpoint that cannot start one fails them with why.
import { answered, type MerchantClient, type Reply } from './merchant.js';
import { newKey, ussdRequest, type SessionBody } from './requests.js';
import type { CheckReport } from './types.js';

export type Order = { paymentReference: string; amount: string; currency: string; statusToken?: string };

export type StartedPayment = { key: string; reply: Reply; order: Order; payments: Record<string, unknown> };

const FIELDS = {
  USSD: ['paymentReference', 'linkingReference', 'providerreference', 'ussdDailCode'],
  TRANSFER: ['paymentReference', 'walletName', 'wallet', 'bankName', 'accountNumber'],
} as const;

/**
 * What an `order_refused` answer to the check's first request means: the shop's order (its
 * resolver) refused it, most often a cart shop given no cart, and no setting of the sandbox's.
 */
export const ORDER_REFUSED =
  "the shop's order refused the request (no cart: its cookie, reference or id missing?), not the sandbox: " +
  "send what your page's requests carry with --header 'Cookie: …' and --reference REF (the page's payment-reference) or --body-extra JSON";

/** The same refusal once the order took the check's first request: the cart changed, or one reference serves every attempt. */
export const ORDER_REFUSED_MIDWAY =
  "the shop's order refused it, not the sandbox, though it took the check's first request: an order that gives every attempt " +
  "for one cart one paymentReference makes the check's attempts one payment, refused once it ended or was paid (see --reference " +
  'in pay-widget check --help); or the cart changed midway';

/** A 4xx `order_refused`: the shop's order said no. */
export function isOrderRefusal(reply: Reply): boolean {
  return (
    reply.status >= 400 &&
    reply.status < 500 &&
    (reply.json as { error?: { code?: unknown } } | undefined)?.error?.code === 'order_refused'
  );
}

/** What is wrong with a session answer to a valid request; empty when it is what the widget needs. */
export function sessionAnswerProblems(reply: Reply, paymentType: 'USSD' | 'TRANSFER'): string[] {
  if (isOrderRefusal(reply))
    return [
      `a valid ${paymentType} request got ${answered(reply)} order_refused${errorText(reply)}: ${ORDER_REFUSED_MIDWAY}`,
    ];
  if (reply.status !== 200)
    return [
      `a valid ${paymentType} request got ${answered(reply)}${errorText(reply)}; answer 200 with the gateway's envelope and order`,
    ];
  const body = reply.json as
    { status?: unknown; data?: { payments?: Record<string, unknown> }; order?: Record<string, unknown> } | undefined;
  const problems: string[] = [];
  if (body?.status !== 'SUCCESS') problems.push('the answer\'s status is not "SUCCESS" (spec 2.2)');
  const payments = body?.data?.payments ?? {};
  const missing = FIELDS[paymentType].filter((field) => typeof payments[field] !== 'string' || payments[field] === '');
  if (missing.length)
    problems.push(`data.payments lacks ${missing.join(', ')} (spec ${paymentType === 'USSD' ? '2.3' : '2.4'})`);
  const order = body?.order;
  const orderMissing = ['paymentReference', 'amount', 'currency'].filter(
    (field) => typeof order?.[field] !== 'string' || order[field] === '',
  );
  if (orderMissing.length)
    problems.push(`order lacks ${orderMissing.join(', ')} (strings): the widget shows and reports order.amount`);
  else if (payments.paymentReference !== undefined && payments.paymentReference !== order!.paymentReference) {
    problems.push('order.paymentReference differs from data.payments.paymentReference');
  }
  return problems;
}

/** Starts a payment with a new key; undefined (and the check failed with why) when the endpoint could not. */
export async function startPayment(
  merchant: MerchantClient,
  report: CheckReport,
  body: SessionBody = ussdRequest(),
): Promise<StartedPayment | undefined> {
  const key = newKey();
  const reply = await merchant.session(body, { key });
  const problems = sessionAnswerProblems(reply, body.paymentType === 'TRANSFER' ? 'TRANSFER' : 'USSD');
  if (problems.length) {
    report.fail(`needs a working session endpoint: ${problems[0]}`);
    return undefined;
  }
  const json = reply.json as { data: { payments: Record<string, unknown> }; order: Order };
  return { key, reply, order: json.order, payments: json.data.payments };
}

/** ` ("the message")` of an error body, for failure messages. */
export function errorText(reply: Reply): string {
  const message = (reply.json as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? ` ("${message.slice(0, 120)}")` : '';
}

/** Two amounts the same number (`"5000"` and `"5000.00"`). */
export function sameAmount(a: unknown, b: unknown): boolean {
  return (
    (typeof a === 'string' || typeof a === 'number') &&
    (typeof b === 'string' || typeof b === 'number') &&
    a !== '' &&
    b !== '' &&
    Number(a) === Number(b)
  );
}
