// The amount: the gateway is asked to charge what `order.amount` says, and never the page's
// `amount` hint because the page sent it.
import { answered, type Reply } from '../merchant.js';
import { errorText, isOrderRefusal, ORDER_REFUSED_MIDWAY, sameAmount, type Order } from '../payment.js';
import { newKey, ussdRequest } from '../requests.js';
import type { Check, CheckContext, CheckReport } from '../types.js';
import { initiationsDuring } from './session.js';

/** A hint no shop's price is: a back end that charges it charges what the page says. */
const LOW_HINT = '1.00';

export const amountCheck: Check = {
  name: 'amount',
  title: "amount: the gateway charges order.amount, whatever the page's hint",
  async run(context, report) {
    await chargeOf(context, report, undefined);
    const charged = await chargeOf(context, report, LOW_HINT);
    if (charged !== undefined && sameAmount(charged, LOW_HINT)) {
      report.fail(
        `the page sent amount: "${LOW_HINT}" and the gateway was asked to charge ${charged}: decide the amount on the server ` +
          '(from the cart or the product), or refuse amounts outside your bounds with a 4xx and fields.amount',
      );
    }
  },
};

/** Starts a payment with `hint` as the page's amount; the amount the gateway was asked to charge, when one started. */
async function chargeOf(
  context: CheckContext,
  report: CheckReport,
  hint: string | undefined,
): Promise<string | undefined> {
  let reply: Reply | undefined;
  const asked = await initiationsDuring(context, async () => {
    reply = await context.merchant.session(ussdRequest(hint === undefined ? {} : { amount: hint }), { key: newKey() });
  });
  if (!reply || reply.status !== 200) {
    if (hint === undefined)
      report.fail(
        `a valid request got ${reply ? answered(reply) : 'no answer'}${reply ? errorText(reply) : ''}${reply && isOrderRefusal(reply) ? `: ${ORDER_REFUSED_MIDWAY}` : ''}`,
      );
    return undefined;
  }
  const order = (reply.json as { order?: Order } | undefined)?.order;
  const charged = asked.find((initiation) => initiation.paymentReference === order?.paymentReference)?.amount;
  if (charged === undefined) {
    report.fail(`the gateway was never asked for the payment the answer names (${order?.paymentReference})`);
  } else if (!sameAmount(charged, order?.amount)) {
    report.fail(
      `the gateway was asked to charge ${charged} but order.amount says ${order?.amount}: the widget shows order.amount, so send the gateway exactly that`,
    );
  }
  return charged;
}
