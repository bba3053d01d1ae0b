// The status endpoint: without a valid token an existing reference answers exactly as an unknown
// one (no enumeration); with the token, the payment's state and the server's amount.
import { answered, type MerchantClient, type Reply } from '../merchant.js';
import { sameAmount, startPayment, type StartedPayment } from '../payment.js';
import { SkipCheck, type Check, type CheckReport } from '../types.js';

/** The status endpoint's answer for the payment, with its token when the session gave one. */
export function statusOf(merchant: MerchantClient, payment: StartedPayment): Promise<Reply> {
  const { paymentReference, statusToken } = payment.order;
  return merchant.status(statusToken ? { paymentReference, statusToken } : { paymentReference });
}

/** Fails unless the status answer is `expected` with the order's amount and currency. */
export function expectStatus(
  reply: Reply,
  payment: StartedPayment,
  expected: 'PENDING' | 'SUCCESS',
  report: CheckReport,
  when: string,
): void {
  const body = reply.json as { status?: unknown; amount?: unknown; currency?: unknown } | undefined;
  if (reply.status !== 200 || body?.status !== expected) {
    const said = reply.status === 200 ? `status ${JSON.stringify(body?.status)}` : answered(reply);
    return report.fail(
      `${when}, the status endpoint (with the payment's statusToken) answered ${said}, not 200 ${expected}`,
    );
  }
  if (!sameAmount(body.amount, payment.order.amount) || body.currency !== payment.order.currency) {
    report.fail(
      `${when}, the status endpoint said amount ${JSON.stringify(body.amount)} ${JSON.stringify(body.currency)}; send the server's amount and currency (${payment.order.amount} ${payment.order.currency})`,
    );
  }
}

export function requireStatusUrl(merchant: MerchantClient): void {
  if (!merchant.urls.statusUrl) throw new SkipCheck('no --status-url');
}

/** The answer with the reference replaced, so an endpoint that echoes the reference it was asked about still compares equal. */
const shape = (reply: Reply, reference: string) => `${reply.status} ${reply.text.split(reference).join('<reference>')}`;

export const statusNoToken: Check = {
  name: 'status-no-token',
  title: 'status: without a valid token, an existing reference answers as an unknown one',
  async run({ merchant }, report) {
    requireStatusUrl(merchant);
    const payment = await startPayment(merchant, report);
    if (!payment) return;
    const existing = payment.order.paymentReference;
    const unknown = `${existing.slice(0, 8)}${crypto.randomUUID().slice(0, 8)}`;
    for (const token of [undefined, 'forged.statusToken']) {
      const query = (reference: string): Record<string, string> =>
        token ? { paymentReference: reference, statusToken: token } : { paymentReference: reference };
      const known = await merchant.status(query(existing));
      const other = await merchant.status(query(unknown));
      if (shape(known, existing) !== shape(other, unknown)) {
        report.fail(
          `${token ? 'with a forged statusToken' : 'without a statusToken'}, an existing reference got ${answered(known)} and an unknown one ` +
            `${answered(other)}: check the token first and answer both alike (404 not_found), so references cannot be enumerated`,
        );
      }
    }
  },
};

export const statusWithToken: Check = {
  name: 'status-with-token',
  title: "status: with the session's token, the payment's state and the server's amount",
  async run({ merchant }, report) {
    requireStatusUrl(merchant);
    const payment = await startPayment(merchant, report);
    if (!payment) return;
    if (!payment.order.statusToken)
      report.note('the session sends no order.statusToken: the status endpoint cannot tell the payer from anyone else');
    expectStatus(await statusOf(merchant, payment), payment, 'PENDING', report, 'right after the payment started');
  },
};
