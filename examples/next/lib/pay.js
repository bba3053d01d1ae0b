// The merchant's payments for the route handlers in app/pay/: createPayments with the ledger and the
// gateway, made once per server process on the first request (not when the module loads: `next
// build` loads every route module, where the keys may be absent). Against the real gateway when
// PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY are set; against the in-process sandbox gateway
// only when asked for (lib/gateway-mode.js; instrumentation.js stops a server started with neither).
import { join } from 'node:path';
import { createGateway, createPayments, forwardedFor } from 'pay-widget/server';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from 'pay-widget/sandbox';
import { createSqliteStores } from 'pay-widget/server/sqlite';
import { gatewayMode } from './gateway-mode.js';

/** The ledger and the idempotency records, in one SQLite file under the app's folder (`next start` runs there). */
const LEDGER_FILE = join(process.cwd(), '.data', 'ledger.db');

function createShop() {
  const { PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY } = process.env;
  // Where customers and the gateway reach this server (a tunnel or your domain in production);
  // `next start` sets PORT to the port it listens on.
  const publicOrigin = process.env.PAY_PUBLIC_ORIGIN ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  const { mode, error } = gatewayMode(process.env);
  if (error) throw new Error(error);

  // Sandbox mode: the gateway runs in this process and posts its webhooks to our own /pay/webhook.
  // Asked for explicitly, so it may run under `next start`'s NODE_ENV=production.
  const sandbox =
    mode === 'sandbox'
      ? createSandboxGateway({ webhookUrl: `${publicOrigin}/pay/webhook`, allowInProduction: true })
      : undefined;
  const gateway = sandbox
    ? createGateway({
        baseUrl: 'https://sandbox.invalid',
        publicKey: SANDBOX_PUBLIC_KEY,
        secretKey: SANDBOX_SECRET_KEY,
        fetch: sandbox.fetch,
      })
    : createGateway({ baseUrl: PAY_BASE_URL, publicKey: PAY_PUBLIC_KEY, secretKey: PAY_SECRET_KEY });

  // The ledger (one entry per payment, written before the gateway is asked) and the idempotency
  // records, durable in LEDGER_FILE; several processes on this machine may share it. Use
  // createRedisStores or createPostgresStores for several machines.
  const stores = createSqliteStores(LEDGER_FILE);
  const payments = createPayments({
    gateway,
    stores,
    publicUrl: `${publicOrigin}/pay`,
    // Next gives a route handler `http://localhost:<port>/…` as request.url, whatever address the
    // browser used: browsers that send Sec-Fetch-Site are known as same-origin by it; for the others
    // (Safari before 16.4), list the page's own origin.
    allowedOrigins: [publicOrigin],
    // Decided here, whatever the page showed: the widget's amount is only a hint.
    order: async () => ({ amount: '5000.00', currency: 'NGN', country: 'NG' }),
    // Your fulfilment: runs once per paid reference, until it returns.
    onPaid: async (payment) => console.log(`paid ${payment.paymentReference} ${payment.amount} ${payment.currency}`),
    // A route handler gets no socket: `next start` puts the caller's address in X-Forwarded-For,
    // appended to by each proxy in front of it. One proxy of yours (nginx, a load balancer, Vercel):
    // trustedProxies: 1. Reached directly, `next start` keeps an X-Forwarded-For the client wrote.
    clientAddress: forwardedFor({ trustedProxies: 1 }),
    // Rate limits and fraud rules go here.
    beforeInitiate: ({ clientAddress }) => console.log(`session from ${clientAddress}`),
    onEvent: (event) => console.log('pay', JSON.stringify(event)), // never a key, a token or a customer's details
  });
  return { sandbox, payments, stores, gateway };
}

// On globalThis: Next may load this module more than once (one copy per route bundle, and again
// in `next dev` after an edit), and every route must share one ledger and one sandbox.
const KEY = Symbol.for('pay-widget-example-next');

/** The payments, their stores and gateway, and the sandbox, made on the first call in this process. */
export function pay() {
  return (globalThis[KEY] ??= createShop());
}
