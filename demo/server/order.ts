// What the demo sells, decided on the server: the order every session is charged for.
import { OrderError, type OrderResolver } from '../../src/server/internal.js';

/** What the demo sells, decided here on the server. The widget's amount is a hint accepted within these bounds. */
const DEMO_ORDER = {
  defaultAmount: '5000',
  minAmount: 100,
  maxAmount: 1_000_000,
  currency: 'NGN',
  country: 'NG',
} as const;

/**
 * The demo's order: a book at ₦5,000 by default; the widget's amount is accepted as a hint between
 * ₦100 and ₦1,000,000 (the donation-form pattern), so the panel can try the sandbox's magic amounts.
 *
 * The paymentReference is left to the session handler, which derives it from the Idempotency-Key.
 *
 * `publicOrigin` is where the demo is reached, from configuration: the callback and redirect URLs
 * are never built from the request (its Host header is whatever the client sent).
 */
export function createDemoOrder(publicOrigin: () => string | undefined): OrderResolver {
  return (request) => {
    if (request.currency && request.currency.toUpperCase() !== DEMO_ORDER.currency) {
      throw new OrderError(`This demo charges in ${DEMO_ORDER.currency} only.`, {
        fields: { currency: `Use ${DEMO_ORDER.currency}.` },
      });
    }
    const amount = Number(request.amount ?? DEMO_ORDER.defaultAmount);
    if (!(amount >= DEMO_ORDER.minAmount && amount <= DEMO_ORDER.maxAmount)) {
      throw new OrderError(
        `This demo accepts amounts from ₦${DEMO_ORDER.minAmount} to ₦${DEMO_ORDER.maxAmount.toLocaleString('en')}.`,
        {
          fields: { amount: `Choose an amount between ${DEMO_ORDER.minAmount} and ${DEMO_ORDER.maxAmount}.` },
        },
      );
    }
    const origin = publicOrigin();
    if (!origin) throw new Error('pay-widget demo: the public origin is not known yet (the server is not listening)');
    return {
      amount: amount.toFixed(2),
      currency: DEMO_ORDER.currency,
      country: DEMO_ORDER.country,
      // No paymentReference: the session handler derives it from the Idempotency-Key, so a retry of
      // this attempt names the same payment however long after (a random one would start a second).
      callbackUrl: `${origin}/pay/callback`,
      redirectUrl: `${origin}/`,
    };
  };
}
