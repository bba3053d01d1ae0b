import { getRequestListener } from '@hono/node-server';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createSandboxGateway,
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
  type SandboxGateway,
  type WebhookAttempt,
} from '../../src/sandbox/index.js';
import { createGateway, createWebhookHandler, type Gateway, type WebhookEvent } from '../../src/server/internal.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { Payment, PaymentStore } from '../../src/server/stores/types.js';
import { initiationBody } from './gateway-fixtures.js';
import { loopbackServers } from './loopback.js';

/**
 * The whole loop over real sockets on 127.0.0.1: the gateway (the sandbox) and the merchant's
 * webhook endpoint are two HTTP servers; nothing is in-process but the test's own bookkeeping.
 */
describe('the payment loop against the sandbox over HTTP', () => {
  const { listen, close } = loopbackServers();
  let time = 1_700_000_000_000;
  let sandbox: SandboxGateway;
  let gateway: Gateway;
  let payments: PaymentStore;
  let merchantUrl = '';
  const paid: Payment[] = [];
  const events: WebhookEvent[] = [];
  const attempts: WebhookAttempt[] = [];
  const tokenRequests: string[] = [];

  before(async () => {
    let webhook: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
    merchantUrl = await listen(getRequestListener((request) => webhook(request)));
    sandbox = createSandboxGateway({
      webhookUrl: `${merchantUrl}/pay/webhook`,
      webhookRetryDelaysMs: [5, 5],
      tokenTtlMs: 60_000,
      now: () => time,
      onWebhook: (attempt) => attempts.push(attempt),
    });
    const sandboxUrl = await listen(getRequestListener(sandbox));
    gateway = createGateway({
      baseUrl: sandboxUrl,
      publicKey: SANDBOX_PUBLIC_KEY,
      secretKey: SANDBOX_SECRET_KEY,
      fetch: (input, init) => {
        if (String(input).endsWith('/api/v2/encrypt/keys')) tokenRequests.push(String(input));
        return fetch(input, init);
      },
    });
    payments = createMemoryPaymentStore();
    webhook = createWebhookHandler({
      gateway,
      payments,
      onPaid: (payment) => void paid.push(payment),
      onEvent: (event) => void events.push(event),
    });
  });

  after(async () => {
    sandbox.close();
    await close();
  });

  /** What the session handler does: initiate with the gateway, then record the payment PENDING. */
  async function startPayment(paymentReference: string): Promise<void> {
    const body = { ...initiationBody(paymentReference), publicKey: SANDBOX_PUBLIC_KEY };
    const outcome = await gateway.initiate(body);
    assert.equal(outcome.kind, 'success');
    const now = Date.now();
    assert.ok(
      await payments.insert({
        paymentReference,
        paymentType: 'TRANSFER',
        amount: body.amount,
        currency: body.currency,
        state: 'PENDING',
        version: 1,
        createdAt: now,
        updatedAt: now,
      }),
    );
  }

  it('token → initiate → the customer pays → webhook → verified by query → ledger SUCCESS → onPaid once', async () => {
    await startPayment('loop-1');
    assert.equal(tokenRequests.length, 1);
    assert.equal((await gateway.query('loop-1')).kind, 'answer');
    assert.equal((await payments.get('loop-1'))?.state, 'PENDING');

    sandbox.setStatus('loop-1', 'SUCCESS');
    await sandbox.webhooksSettled();

    const entry = await payments.get('loop-1');
    assert.equal(entry?.state, 'SUCCESS');
    assert.equal(entry?.gatewayCode, '00');
    assert.deepEqual(
      paid.map((payment) => payment.paymentReference),
      ['loop-1'],
    );
    assert.deepEqual(
      attempts.map((attempt) => [attempt.paymentReference, attempt.httpStatus, attempt.acknowledged]),
      [['loop-1', 200, true]],
    );
    assert.deepEqual(
      events
        .filter((event) => 'paymentReference' in event && event.paymentReference === 'loop-1')
        .map((event) => event.type),
      ['verified', 'paid', 'fulfilled'],
    );
  });

  it('renews an expired token during verification, and pays once for a duplicate delivery', async () => {
    await startPayment('loop-2');
    time += 120_000; // the sandbox's token has expired: the webhook's query meets a 401
    sandbox.setStatus('loop-2', 'SUCCESS');
    sandbox.setStatus('loop-2', 'SUCCESS'); // a second notification for the same payment
    await sandbox.webhooksSettled();
    assert.equal((await payments.get('loop-2'))?.state, 'SUCCESS');
    assert.equal(paid.filter((payment) => payment.paymentReference === 'loop-2').length, 1);
    assert.equal(tokenRequests.length, 2);
    assert.ok(
      attempts.filter((attempt) => attempt.paymentReference === 'loop-2').every((attempt) => attempt.acknowledged),
    );
  });

  it('does not record a forged notification: anyone may post "paid", the gateway still says pending', async () => {
    await startPayment('loop-3');
    const forged = {
      notificationItems: [
        {
          notificationRequestItem: {
            eventType: 'transaction',
            eventId: 'forged',
            data: { reference: 'loop-3', amount: 5000, currency: 'NGN', code: '00' },
          },
        },
      ],
    };
    const response = await fetch(`${merchantUrl}/pay/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-expected-ack-reference': 'forged-ack' },
      body: JSON.stringify(forged),
    });
    // Not acknowledged: a real notification the query has not caught up with is delivered again.
    assert.equal(response.status, 503);
    assert.equal((await payments.get('loop-3'))?.state, 'PENDING');
    assert.equal(paid.filter((payment) => payment.paymentReference === 'loop-3').length, 0);
  });
});
