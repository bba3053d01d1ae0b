// The webhook: a forged success for a pending payment is not believed; the gateway's own
// notification is acknowledged with its ackReference within 5 s; twenty duplicates of it leave the
// payment paid once, as the status endpoint and the sandbox's count of queries show.
import { MAX_WEBHOOK_ANSWER_BYTES } from '../../sandbox/webhooks.js';
import { answered, type MerchantClient } from '../merchant.js';
import { startPayment, type StartedPayment } from '../payment.js';
import { notification } from '../requests.js';
import { SkipCheck, type Check, type CheckContext, type CheckReport } from '../types.js';
import { expectStatus, requireStatusUrl, statusOf } from './status.js';

const DUPLICATES = 20;

/** The gateway's deadline for an acknowledgement (docs/architecture.md, "The notification"). */
const ACK_DEADLINE_MS = 5_000;

function requireWebhookUrl(merchant: MerchantClient): void {
  if (!merchant.urls.webhookUrl) throw new SkipCheck('no --webhook-url');
  requireStatusUrl(merchant);
}

export const webhookForged: Check = {
  name: 'webhook-forged',
  title: 'webhook: a forged success for a pending payment is not believed',
  async run({ merchant }, report) {
    requireWebhookUrl(merchant);
    const payment = await startPayment(merchant, report);
    if (!payment) return;
    const { paymentReference, amount, currency } = payment.order;
    await merchant.webhook(notification(paymentReference, amount, currency), `forged-${crypto.randomUUID()}`);
    const status = (await statusOf(merchant, payment)).json as { status?: unknown } | undefined;
    if (status?.status === 'SUCCESS') {
      report.fail(
        'a forged "paid" notification for a payment the gateway says is pending was believed (status SUCCESS): ' +
          'take only the reference from the notification and ask the gateway (GET /api/v3/payments/query/{reference}) before settling',
      );
    }
  },
};

export const webhookReal: Check = {
  name: 'webhook-real',
  title: "webhook: the gateway's notification is acknowledged with its ackReference within 5 s",
  async run(context, report) {
    requireWebhookUrl(context.merchant);
    const payment = await paidPayment(context, report);
    if (!payment) return;
    const delivery = context.gateway
      .deliveries()
      .find((attempt) => attempt.paymentReference === payment.order.paymentReference);
    if (!delivery?.acknowledged) {
      const got =
        delivery?.httpStatus === undefined
          ? `no answer within ${ACK_DEADLINE_MS / 1000} s`
          : delivery.answerCut
            ? `HTTP ${delivery.httpStatus} with an answer over ${MAX_WEBHOOK_ANSWER_BYTES / 1024} KB (read no further)`
            : `HTTP ${delivery.httpStatus} without the ack`;
      report.fail(
        `the gateway's notification for a paid payment got ${got}: once the gateway's query says paid, answer 200 ` +
          '{"ackReference": <the X-Expected-Ack-Reference header>, "status": "received"} within 5 s',
      );
    }
    expectStatus(
      await statusOf(context.merchant, payment),
      payment,
      'SUCCESS',
      report,
      'after the gateway confirmed the payment',
    );
  },
};

export const webhookDuplicates: Check = {
  name: 'webhook-duplicates',
  title: `webhook: ${DUPLICATES} duplicate notifications settle the payment once`,
  async run(context, report) {
    requireWebhookUrl(context.merchant);
    const payment = await startPayment(context.merchant, report);
    if (!payment) return;
    const { paymentReference, amount, currency } = payment.order;
    const body = notification(paymentReference, amount, currency);
    // The gateway's own notification and the duplicates race, as retries and replays do.
    context.gateway.markPaid(paymentReference);
    const replies = await Promise.all(
      Array.from({ length: DUPLICATES }, (_, n) => context.merchant.webhook(body, `dup-${n}-${crypto.randomUUID()}`)),
    );
    await context.gateway.sandbox.webhooksSettled();
    const broken = replies.find((reply) => reply.status === 0 || (reply.status >= 500 && reply.status !== 503));
    if (broken)
      report.fail(
        `a duplicate notification got ${answered(broken)}: answer duplicates 200 with their ackReference (or 503 while still settling)`,
      );
    expectStatus(
      await statusOf(context.merchant, payment),
      payment,
      'SUCCESS',
      report,
      `after ${DUPLICATES} duplicate notifications`,
    );
    const queries = context.gateway.queries(paymentReference);
    if (queries > DUPLICATES + 1) report.fail(`${DUPLICATES + 1} notifications made ${queries} queries to the gateway`);
    else if (queries > 1)
      report.note(
        `${DUPLICATES + 1} notifications made ${queries} queries: one per reference every few seconds is enough`,
      );
  },
};

/** A payment started, then paid in the sandbox, whose notification was delivered (or given up). */
async function paidPayment(context: CheckContext, report: CheckReport): Promise<StartedPayment | undefined> {
  const payment = await startPayment(context.merchant, report);
  if (!payment) return undefined;
  context.gateway.markPaid(payment.order.paymentReference);
  await context.gateway.sandbox.webhooksSettled();
  return payment;
}
