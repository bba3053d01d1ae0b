// A merchant's server for <pay-widget> on Express 5: the page, the session endpoint, the status
// endpoint and the webhook. Against the real gateway when PAY_BASE_URL, PAY_PUBLIC_KEY and
// PAY_SECRET_KEY are set; against the in-process sandbox gateway (offline, no money) only when asked
// for: `npm run sandbox` or PAY_SANDBOX=1. Anything in between stops here with the reason.
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createGateway,
  createSessionHandler,
  createStatusHandler,
  createWebhookHandler,
} from 'pay-widget/server';
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
  if (missing.length === 0 && sandboxAsked) return { error: 'PAY_SANDBOX=1 (or npm run sandbox) with the gateway variables set: choose one, unset PAY_SANDBOX or the three PAY_ variables' };
  if (missing.length === 0) return { mode: 'gateway' };
  if (missing.length < GATEWAY_VARIABLES.length) return { error: `${missing.join(' and ')} not set: the real gateway needs ${GATEWAY_VARIABLES.join(', ')} (or unset them all and run npm run sandbox)` };
  if (sandboxAsked) return { mode: 'sandbox' };
  return { error: `no gateway: set ${GATEWAY_VARIABLES.join(', ')} for the real one, or run npm run sandbox (PAY_SANDBOX=1) for the offline sandbox` };
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
const sandbox = mode === 'sandbox' ? createSandboxGateway({ webhookUrl: `${publicOrigin}/pay/webhook`, allowInProduction: true }) : undefined;
const gateway = sandbox
  ? createGateway({ baseUrl: 'https://sandbox.invalid', publicKey: SANDBOX_PUBLIC_KEY, secretKey: SANDBOX_SECRET_KEY, fetch: sandbox.fetch })
  : createGateway({ baseUrl: PAY_BASE_URL, publicKey: PAY_PUBLIC_KEY, secretKey: PAY_SECRET_KEY });

// The ledger (one entry per payment the gateway accepted) and the idempotency records, durable in
// LEDGER_FILE; several processes on this machine may share it. Use createRedisStores or
// createPostgresStores for several machines.
const { idempotency, payments } = createSqliteStores(LEDGER_FILE);
// Signs the status token the widget polls with; set it so tokens survive a restart.
const statusSecret = process.env.PAY_STATUS_SECRET ?? randomBytes(32).toString('base64');

// Your fulfilment: runs once per paid reference, whichever path (webhook or status re-query) settles it.
async function onPaid(payment) {
  console.log(`paid ${payment.paymentReference} ${payment.amount} ${payment.currency}`);
}

const session = createSessionHandler({
  gateway,
  payments,
  idempotency,
  statusSecret,
  // Decided here, whatever the page showed: the widget's amount is only a hint.
  order: async () => ({
    amount: '5000.00',
    currency: 'NGN',
    country: 'NG',
    callbackUrl: `${publicOrigin}/pay/callback`,
    redirectUrl: `${publicOrigin}/`,
  }),
  // Rate limits and fraud rules go here; clientAddress is the socket's peer (behind a proxy: docs/server.md).
  beforeInitiate: ({ clientAddress }) => console.log(`session from ${clientAddress}`),
  onEvent: (event) => console.log('session', JSON.stringify(event)),
});
const status = createStatusHandler({ statusSecret, payments, gateway, onPaid });
const webhook = createWebhookHandler({ gateway, payments, onPaid, onEvent: (event) => console.log('webhook', JSON.stringify(event)) });

const app = express();
// The package's endpoints come before any body parser: they read the request body themselves.
app.all('/pay/session', getRequestListener(session));
app.all('/pay/status', getRequestListener(status));
app.all('/pay/webhook', getRequestListener(webhook));

/** This machine: 127.0.0.0/8 or ::1, also as an IPv4-mapped IPv6 address. */
const isLoopback = (address = '') => /^(::ffff:)?127\./.test(address) || address === '::1';

// Sandbox only: "the customer paid", as the customer would on their phone. Only from this machine:
// anyone who can reach it could otherwise mark a payment paid.
if (sandbox) {
  app.post('/pay/simulate', express.json(), (request, response) => {
    if (!isLoopback(request.socket.remoteAddress)) return response.status(403).send('The sandbox’s /pay/simulate answers only on this machine.');
    const known = sandbox.setStatus(String(request.body?.paymentReference), request.body?.status === 'FAILED' ? 'FAILED' : 'SUCCESS');
    response.status(known ? 204 : 404).end();
  });
}

// The page, and the widget's script-tag build: its whole folder (dist/) from the installed package,
// as the script loads files beside itself (what runs after a submit, the languages).
const widgetFolder = join(dirname(fileURLToPath(import.meta.resolve('pay-widget/package.json'))), 'dist');
app.use('/pay-widget', express.static(widgetFolder));
app.use(express.static(join(appFolder, 'public')));

app.listen(port, host, () => {
  console.log(`listening on http://${host}:${port} (${sandbox ? 'sandbox gateway' : `gateway ${new URL(PAY_BASE_URL).origin}`})`);
});
