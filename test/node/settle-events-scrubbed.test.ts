// Issue 16 item 3: every string that came from the gateway (the query answer's code, currency and
// message, the notification's fields) is scrubbed of the secrets the handler knows before it
// reaches `onEvent`, in the webhook and the status re-query alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createGateway,
  createMemoryPaymentStore,
  createStatusHandler,
  createWebhookHandler,
  type Payment,
  type StatusEvent,
  type WebhookEvent,
} from '../../src/server/internal.js';
import { BASE_URL, fakeGateway, PUBLIC_KEY, queryAnswer, SECRET_KEY, tokenAnswer } from './gateway-fixtures.js';
import { STATUS_SECRET, statusTokenFor } from './server-fixtures.js';

const TOKEN = 'T0ken+Secret/Value==';

/**
 * Per reference, a query answer quoting the public key and the token (as `Bearer …`) in the fields
 * the events repeat: an unknown code (verified, code-reported), a failing `SM_` code (failed), and a
 * paid code whose currency is the key (amount-mismatch).
 */
const ECHOES: Record<string, [code: string, payments: Record<string, unknown>]> = {
  'echo-unknown': [`X${PUBLIC_KEY} Bearer ${TOKEN}`, {}],
  'echo-failed': [`SM_${PUBLIC_KEY}`, {}],
  'echo-currency': ['00', { currency: `${PUBLIC_KEY} Bearer ${TOKEN}` }],
};

function echoingGateway() {
  const fake = fakeGateway((request) => {
    if (request.path.endsWith('/encrypt/keys')) return tokenAnswer(TOKEN);
    const reference = decodeURIComponent(request.path.split('/').at(-1)!);
    const [code, payments] = ECHOES[reference]!;
    return queryAnswer(code, { amount: 5000, ...payments }, reference);
  });
  return createGateway({ baseUrl: BASE_URL, publicKey: PUBLIC_KEY, secretKey: SECRET_KEY, fetch: fake.fetch });
}

async function ledger() {
  const payments = createMemoryPaymentStore();
  const longAgo = Date.now() - 60_000;
  for (const paymentReference of Object.keys(ECHOES)) {
    const entry: Payment = {
      paymentReference,
      paymentType: 'USSD',
      amount: '5000.00',
      currency: 'NGN',
      state: 'PENDING',
      version: 1,
      createdAt: longAgo,
      updatedAt: longAgo,
    };
    await payments.insert(entry);
  }
  return payments;
}

function assertScrubbed(events: unknown[], types: string[]): void {
  const text = JSON.stringify(events);
  for (const type of types) assert.ok(text.includes(`"type":"${type}"`), `no ${type} event: ${text}`);
  for (const secret of [PUBLIC_KEY, TOKEN, SECRET_KEY, JSON.stringify(TOKEN).slice(1, -1)]) {
    assert.ok(!text.includes(secret), `${secret} reached onEvent: ${text}`);
  }
}

describe('gateway text in onEvent is scrubbed (issue 16 item 3)', () => {
  it('by the webhook handler: query answers and notification fields', async () => {
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler({
      gateway: echoingGateway(),
      payments: await ledger(),
      onPaid: () => {},
      onEvent: (event) => void events.push(event),
    });
    const deliver = (data: Record<string, unknown>) =>
      handler(
        new Request('https://shop.test/pay/webhook', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ notificationItems: [{ notificationRequestItem: { eventType: PUBLIC_KEY, data } }] }),
        }),
      );
    for (const reference of Object.keys(ECHOES)) await deliver({ reference });
    await deliver({ reference: PUBLIC_KEY });
    // The secret key is known only to the gateway object, and its `redact` scrubs it.
    await handler(
      new Request('https://shop.test/pay/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          notificationItems: [{ notificationRequestItem: { eventType: SECRET_KEY, data: { reference: SECRET_KEY } } }],
        }),
      }),
    );
    assertScrubbed(events, ['verified', 'code-reported', 'failed', 'amount-mismatch', 'webhook-ignored']);
  });

  it('by the status handler’s re-query', async () => {
    const events: StatusEvent[] = [];
    const status = createStatusHandler({
      statusSecret: STATUS_SECRET,
      payments: await ledger(),
      gateway: echoingGateway(),
      onPaid: () => {},
      onEvent: (event) => void events.push(event),
      recheckAfterMs: 0,
    });
    for (const reference of Object.keys(ECHOES)) {
      const response = await status(
        new Request(
          `https://shop.test/pay/status?paymentReference=${reference}&statusToken=${await statusTokenFor(reference)}`,
        ),
      );
      assert.equal(response.status, 200, reference);
    }
    assertScrubbed(events, ['verified', 'code-reported', 'failed', 'amount-mismatch']);
  });
});
