// A merchant's server for <pay-widget> on Express 5: the page and the payments handler (session,
// status and webhook under /pay/, the reconciler). Against the real gateway when PAY_BASE_URL,
// PAY_PUBLIC_KEY and PAY_SECRET_KEY are set; against the in-process sandbox gateway (offline, no
// money) only when asked for: `npm run sandbox` or PAY_SANDBOX=1. Anything in between stops here.
import express from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGateway, createLedgerPage, createPayments } from 'pay-widget/server';
import { toNodeHandler } from 'pay-widget/server/node';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from 'pay-widget/sandbox';
import { createSqliteStores } from 'pay-widget/server/sqlite';

const appFolder = dirname(fileURLToPath(import.meta.url));
/** The ledger and the idempotency records, in one SQLite file under this folder: payments survive a restart. */
const LEDGER_FILE = join(appFolder, '.data', 'ledger.db');

const GATEWAY_VARIABLES = ['PAY_BASE_URL', 'PAY_PUBLIC_KEY', 'PAY_SECRET_KEY'];

/** 'gateway' or 'sandbox', or the one line that says why neither can run. */
function gatewayMode(env) {
  const missing = GATEWAY_VARIABLES.filter((name) => !env[name]);
  const sandboxAsked = env.PAY_SANDBOX === '1' || env.npm_lifecycle_event === 'sandbox';
  if (missing.length === 0 && sandboxAsked)
    return {
      error:
        'PAY_SANDBOX=1 (or npm run sandbox) with the gateway variables set: choose one, unset PAY_SANDBOX or the three PAY_ variables',
    };
  if (missing.length === 0) return { mode: 'gateway' };
  if (missing.length < GATEWAY_VARIABLES.length)
    return {
      error: `${missing.join(' and ')} not set: the real gateway needs ${GATEWAY_VARIABLES.join(', ')} (or unset them all and run npm run sandbox)`,
    };
  if (sandboxAsked) return { mode: 'sandbox' };
  return {
    error: `no gateway: set ${GATEWAY_VARIABLES.join(', ')} for the real one, or run npm run sandbox (PAY_SANDBOX=1) for the offline sandbox`,
  };
}

const { mode, error } = gatewayMode(process.env);
if (error) {
  console.error(`pay-widget example: ${error}`);
  process.exit(1);
}

const { PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY } = process.env;
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
// Where customers and the gateway reach this server (a tunnel or your domain in production).
const publicOrigin = process.env.PAY_PUBLIC_ORIGIN ?? `http://${host}:${port}`;

// Sandbox mode: the gateway runs in this process and posts its webhooks to our own /pay/webhook.
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
  // Where the gateway posts its notifications (publicUrl + '/webhook') and sends the customer back.
  publicUrl: `${publicOrigin}/pay`,
  // Decided here, whatever the page showed: the widget's amount is only a hint.
  order: async () => ({ amount: '5000.00', currency: 'NGN', country: 'NG' }),
  // Your fulfilment: runs once per paid reference, until it returns.
  onPaid: async (payment) => console.log(`paid ${payment.paymentReference} ${payment.amount} ${payment.currency}`),
  // Rate limits and fraud rules go here; clientAddress is the socket's peer (behind a proxy: docs/server.md).
  beforeInitiate: ({ clientAddress }) => console.log(`session from ${clientAddress}`),
  onEvent: (event) => console.log('pay', JSON.stringify(event)), // never a key, a token or a customer's details
});

const app = express();
app.use(express.json()); // the rest of your app's routes; the payments handler works before or after it
// Sandbox only: "the customer paid", as the customer would on their phone. It answers the person at
// this machine alone: nothing that came through a proxy, a tunnel or another address.
if (sandbox) app.post('/pay/simulate', toNodeHandler({ handler: sandbox.customerPaid }));
app.all('/pay/*splat', toNodeHandler(payments));

// The payments for the shop's staff (search, history, recheck, resolve, CSV), behind HTTP Basic
// auth as "admin" with PAY_ADMIN_PASSWORD; not served at all without it.
if (process.env.PAY_ADMIN_PASSWORD) {
  const ledger = createLedgerPage({
    stores,
    gateway,
    authorize: (request) => signedIn(request, 'admin', process.env.PAY_ADMIN_PASSWORD),
  });
  app.all('/admin/payments', toNodeHandler({ handler: async (request) => askToSignIn(await ledger(request)) }));
}

/** Whether the request's Basic credentials are `user` and `password`, compared in constant time. */
function signedIn(request, user, password) {
  const [scheme, encoded = ''] = (request.headers.get('authorization') ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic') return false;
  const digest = (text) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(Buffer.from(encoded, 'base64').toString()), digest(`${user}:${password}`));
}

/** A 401 that makes the browser ask for the credentials. */
function askToSignIn(response) {
  if (response.status === 401) response.headers.set('www-authenticate', 'Basic realm="Payments", charset="UTF-8"');
  return response;
}

// The page, and the widget's script-tag build: its whole folder (dist/) from the installed package,
// as the script loads files beside itself (what runs after a submit, the languages).
const widgetFolder = join(dirname(fileURLToPath(import.meta.resolve('pay-widget/package.json'))), 'dist');
app.use('/pay-widget', express.static(widgetFolder));
app.use(express.static(join(appFolder, 'public')));

app.listen(port, host, () => {
  console.log(
    `listening on http://${host}:${port} (${sandbox ? 'sandbox gateway' : `gateway ${new URL(PAY_BASE_URL).origin}`})`,
  );
});
