/**
 * Issue 16 item 2: an answer naming another payment. Instructions the gateway gives for a
 * paymentReference other than the one sent are not this payment's: the customer gets no
 * instructions, nothing is recorded as initiated, and the retry asks about the same reference.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryPaymentStore } from '../../src/server/internal.js';
import {
  answerSuccess,
  makeHandler,
  newKey,
  ORDER,
  post,
  type Responder,
  USSD_REQUEST,
  ussdEnvelope,
} from './server-fixtures.js';

describe('createSessionHandler: an answer naming another payment (issue 16 item 2)', () => {
  it('answers 502 invalid_gateway_response, records it unknown, reports it, and the retry sends the same reference', async () => {
    let answers = 0;
    const respond: Responder = (call, signal) =>
      ++answers === 1 ? Response.json(ussdEnvelope('someone-elses-payment')) : answerSuccess(call, signal);
    const payments = createMemoryPaymentStore();
    const { handler, calls, events } = makeHandler({ payments }, respond);
    const key = { 'idempotency-key': newKey() };

    const first = await handler(post(USSD_REQUEST, key));
    const body = (await first.json()) as { status: string; error: { code: string; retryable?: boolean } };
    assert.equal(first.status, 502, JSON.stringify(body));
    assert.equal(body.error.code, 'invalid_gateway_response');
    assert.equal(body.error.retryable, true);
    assert.doesNotMatch(
      JSON.stringify(body),
      /someone-elses-payment|737/,
      'none of the foreign instructions reach the customer',
    );
    // Issue 15 item 1: the payment sent is in the ledger from before the gateway was asked; the answer leaves it
    // unknown.
    assert.equal(
      (await payments.get(ORDER.paymentReference))?.initiation,
      'unknown',
      'recorded as unknown, not started',
    );
    assert.equal(await payments.get('someone-elses-payment'), undefined);
    assert.ok(!events.some((event) => event.type === 'initiated'), 'nothing reported as initiated');
    const reported = events.find((event) => event.type === 'gateway');
    assert.equal(reported?.type === 'gateway' && reported.outcome, 'foreign-reference', JSON.stringify(events));

    const retry = await handler(post(USSD_REQUEST, key));
    assert.equal(retry.status, 200);
    assert.deepEqual(
      calls.map((call) => call.body.paymentReference),
      [ORDER.paymentReference, ORDER.paymentReference],
    );
    assert.equal((await payments.get(ORDER.paymentReference))?.state, 'PENDING');
    assert.equal((await payments.get(ORDER.paymentReference))?.initiation, 'started');
    assert.equal(calls[1]!.body.retry, true, 'the retry re-initiates the same reference');
  });

  it('keeps the order for the retry even when the resolver would name another reference next time', async () => {
    let resolved = 0;
    const respond: Responder = (call, signal) =>
      calls.length === 1 ? Response.json(ussdEnvelope('someone-elses-payment')) : answerSuccess(call, signal);
    const { handler, calls } = makeHandler(
      { order: () => ({ ...ORDER, paymentReference: `order-${++resolved}` }) },
      respond,
    );
    const key = { 'idempotency-key': newKey() };
    assert.equal((await handler(post(USSD_REQUEST, key))).status, 502);
    assert.equal((await handler(post(USSD_REQUEST, key))).status, 200);
    assert.deepEqual(
      calls.map((call) => call.body.paymentReference),
      ['order-1', 'order-1'],
    );
  });
});
