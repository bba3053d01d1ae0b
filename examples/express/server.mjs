// A merchant's server for <pay-widget> on Express 5: the page, the session endpoint, the status
// endpoint and the webhook. With no configuration it runs against the in-process sandbox gateway,
// offline; set PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY to use the real gateway.
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createGateway,
  createMemoryPaymentStore,
  createSessionHandler,
  createStatusHandler,
  createWebhookHandler,
} from 'pay-widget/server';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from 'pay-widget/sandbox';

const { PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY } = process.env;
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
// Where customers and the gateway reach this server (a tunnel or your domain in production).
const publicOrigin = process.env.PAY_PUBLIC_ORIGIN ?? `http://${host}:${port}`;
const real = Boolean(PAY_BASE_URL && PAY_PUBLIC_KEY && PAY_SECRET_KEY);

// Sandbox mode: the gateway runs in this process and posts its webhooks to our own /pay/webhook.
const sandbox = real ? undefined : createSandboxGateway({ webhookUrl: `${publicOrigin}/pay/webhook` });
const gateway = real
  ? createGateway({ baseUrl: PAY_BASE_URL, publicKey: PAY_PUBLIC_KEY, secretKey: PAY_SECRET_KEY })
  : createGateway({ baseUrl: 'https://sandbox.invalid', publicKey: SANDBOX_PUBLIC_KEY, secretKey: SANDBOX_SECRET_KEY, fetch: sandbox.fetch });

// The ledger: one entry per payment the gateway accepted. Use createRedisStores for several instances.
const payments = createMemoryPaymentStore();
// Signs the status token the widget polls with; set it so tokens survive a restart.
const statusSecret = process.env.PAY_STATUS_SECRET ?? randomBytes(32).toString('base64');

// Your fulfilment: runs once per paid reference, whichever path (webhook or status re-query) settles it.
async function onPaid(payment) {
  console.log(`paid ${payment.paymentReference} ${payment.amount} ${payment.currency}`);
}

const session = createSessionHandler({
  gateway,
  payments,
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

// Sandbox only: "the customer paid", as the customer would on their phone.
if (sandbox) {
  app.post('/pay/simulate', express.json(), (request, response) => {
    const known = sandbox.setStatus(String(request.body?.paymentReference), request.body?.status === 'FAILED' ? 'FAILED' : 'SUCCESS');
    response.status(known ? 204 : 404).end();
  });
}

// The page, and the widget's script-tag build from the installed package.
const widgetScript = join(dirname(fileURLToPath(import.meta.resolve('pay-widget/package.json'))), 'dist', 'pay-widget.iife.js');
app.get('/pay-widget.js', (_request, response) => response.sendFile(widgetScript));
app.use(express.static(join(dirname(fileURLToPath(import.meta.url)), 'public')));

app.listen(port, host, () => {
  console.log(`listening on http://${host}:${port} (${real ? `gateway ${new URL(PAY_BASE_URL).origin}` : 'sandbox gateway'})`);
});
