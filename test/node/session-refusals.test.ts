/**
 * Issue 16 item 1: Try again after a refusal. Every session error says whether Try again can help
 * (`error.retryable`), and a gateway refusing the merchant's keys (401, 403, 404: no payment can
 * have been made) is not the key's final answer, so the same retry goes through once the keys are fixed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerSuccess, makeHandler, newKey, ORDER, post, type Responder, USSD_REQUEST } from './server-fixtures.js';

type ErrorJson = { status: 'ERROR'; error: { code: string; message: string; retryable?: boolean } };

async function errorOf(response: Response) {
  const body = (await response.json()) as ErrorJson;
  return { status: response.status, code: body.error.code, retryable: body.error.retryable };
}

describe('createSessionHandler: whether Try again can help (issue 16 item 1)', () => {
  for (const status of [401, 403, 404]) {
    it(`a gateway ${status} says retryable: false, and once the keys are fixed the same key gets the instructions`, async () => {
      let keysFixed = false;
      const respond: Responder = (call, signal) =>
        keysFixed ? answerSuccess(call, signal) : Response.json({ message: 'Invalid key' }, { status });
      const { handler, calls } = makeHandler({}, respond);
      const key = { 'idempotency-key': newKey() };

      assert.deepEqual(await errorOf(await handler(post(USSD_REQUEST, key))), {
        status: 502,
        code: 'gateway_error',
        retryable: false,
      });
      keysFixed = true;
      const retry = await handler(post(USSD_REQUEST, key));
      assert.equal(retry.status, 200, 'the refusal was not stored as the key’s answer');
      assert.equal(retry.headers.get('idempotent-replayed'), null);
      const body = (await retry.json()) as { order: { paymentReference: string } };
      assert.equal(body.order.paymentReference, ORDER.paymentReference);
      assert.deepEqual(
        calls.map((call) => call.body.paymentReference),
        [ORDER.paymentReference, ORDER.paymentReference],
      );
    });
  }

  it('keeps a definitive refusal and a decline as the key’s answer, retryable: false', async () => {
    for (const [gatewayStatus, status, code] of [
      [400, 502, 'gateway_error'],
      [402, 402, 'payment_declined'],
    ] as const) {
      const { handler, calls } = makeHandler({}, () => Response.json({ message: 'No' }, { status: gatewayStatus }));
      const key = { 'idempotency-key': newKey() };
      assert.deepEqual(await errorOf(await handler(post(USSD_REQUEST, key))), { status, code, retryable: false });
      const replay = await handler(post(USSD_REQUEST, key));
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(await errorOf(replay), { status, code, retryable: false });
      assert.equal(calls.length, 1);
    }
  });

  it('says retryable: true for a time-out, a 5xx and an unreachable gateway', async () => {
    const cases: [Responder, number, string][] = [
      [() => new Response(null, { status: 503 }), 502, 'gateway_error'],
      [
        () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })),
        502,
        'gateway_unreachable',
      ],
      [
        (_call, signal) =>
          new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
        504,
        'gateway_timeout',
      ],
    ];
    for (const [respond, status, code] of cases) {
      const { handler } = makeHandler({ timeoutMs: 50 }, respond);
      assert.deepEqual(await errorOf(await handler(post(USSD_REQUEST))), { status, code, retryable: true });
    }
  });

  it('says retryable: false for a request the customer must change', async () => {
    const { handler } = makeHandler();
    assert.deepEqual(await errorOf(await handler(post({ ...USSD_REQUEST, email: 'nope' }))), {
      status: 400,
      code: 'validation',
      retryable: false,
    });
  });
});
