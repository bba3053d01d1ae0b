// Issue 15 defect 6 (amplification): however many notifications name one reference, on one instance
// or several sharing the ledger, the webhook asks the gateway at most once per `requeryAfterMs`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWebhookHandler, type WebhookHandlerOptions } from '../../src/server/internal.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { PaymentStore } from '../../src/server/stores/types.js';
import { answer, countingGateway, ledgerEntry, notify } from './webhook-fixtures.js';

const REFERENCE = 'ORDER-2001';
const INTERVAL_MS = 5_000;

async function pendingLedger(): Promise<PaymentStore> {
  const payments = createMemoryPaymentStore();
  await payments.insert(ledgerEntry(REFERENCE));
  return payments;
}

function handlerFor(payments: PaymentStore, gateway: WebhookHandlerOptions['gateway'], now: () => number) {
  return createWebhookHandler({ gateway, payments, onPaid: () => {}, now });
}

describe('the webhook asks the gateway at most once per reference per interval (issue 15, defect 6)', () => {
  it('1,000 concurrent notifications for one pending reference make one query, and each is asked again (503)', async () => {
    let time = 1_000_000;
    const gateway = countingGateway(() => answer('S20'), 2);
    const handler = handlerFor(await pendingLedger(), gateway, () => time);
    const responses = await Promise.all(Array.from({ length: 1_000 }, () => handler(notify(REFERENCE))));
    assert.equal(gateway.queries.length, 1);
    assert.ok(responses.every((response) => response.status === 503));
  });

  it('1,000 sequential notifications within the interval make one query; the next interval makes one more', async () => {
    let time = 1_000_000;
    const gateway = countingGateway(() => answer('S20'));
    const handler = handlerFor(await pendingLedger(), gateway, () => time);
    for (let i = 0; i < 1_000; i += 1) {
      const response = await handler(notify(REFERENCE));
      assert.equal(response.status, 503);
      time += 4; // 1,000 notifications over 4 s, within one interval
    }
    assert.equal(gateway.queries.length, 1);
    time = 1_000_000 + INTERVAL_MS;
    for (let i = 0; i < 100; i += 1) await handler(notify(REFERENCE));
    assert.equal(gateway.queries.length, 2);
  });

  it('two instances sharing the ledger: 1,000 notifications split between them, concurrent then sequential, make one query per interval', async () => {
    let time = 1_000_000;
    const payments = await pendingLedger();
    const gateway = countingGateway(() => answer('S20'), 2);
    const instances = [handlerFor(payments, gateway, () => time), handlerFor(payments, gateway, () => time)];
    await Promise.all(Array.from({ length: 500 }, (_, i) => instances[i % 2]!(notify(REFERENCE))));
    for (let i = 0; i < 500; i += 1) await instances[i % 2]!(notify(REFERENCE));
    assert.equal(gateway.queries.length, 1);
    time += INTERVAL_MS;
    await Promise.all(Array.from({ length: 100 }, (_, i) => instances[i % 2]!(notify(REFERENCE))));
    assert.equal(gateway.queries.length, 2);
  });

  it('honours requeryAfterMs', async () => {
    let time = 1_000_000;
    const gateway = countingGateway(() => answer('S20'));
    const handler = createWebhookHandler({
      gateway,
      payments: await pendingLedger(),
      onPaid: () => {},
      now: () => time,
      requeryAfterMs: 60_000,
    });
    await handler(notify(REFERENCE));
    time += 59_999;
    await handler(notify(REFERENCE));
    assert.equal(gateway.queries.length, 1);
    time += 1;
    await handler(notify(REFERENCE));
    assert.equal(gateway.queries.length, 2);
  });

  it('still settles once the gateway says paid, on the first notification after the interval', async () => {
    let time = 1_000_000;
    let code = 'S20';
    const paid: string[] = [];
    const gateway = countingGateway(() => answer(code));
    const payments = await pendingLedger();
    const handler = createWebhookHandler({
      gateway,
      payments,
      onPaid: (payment) => void paid.push(payment.paymentReference),
      now: () => time,
    });
    assert.equal((await handler(notify(REFERENCE))).status, 503);
    code = '00';
    assert.equal((await handler(notify(REFERENCE))).status, 503, 'within the interval: the last verdict');
    time += INTERVAL_MS;
    assert.equal((await handler(notify(REFERENCE))).status, 200);
    assert.deepEqual(paid, [REFERENCE]);
    assert.equal((await payments.get(REFERENCE))?.state, 'SUCCESS');
  });
});
