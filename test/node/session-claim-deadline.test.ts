/**
 * Issue 16 item 7: a claim that outlives its deadline. When the gateway call never settles (and
 * ignores the abort), the request is answered 504 at its deadline and the Idempotency-Key's claim
 * ends with it: the attempt is unknown, so its order is kept and the retry names the same payment.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryIdempotencyStore, createSessionHandler } from '../../src/server/internal.js';
import {
  answerSuccess,
  GATEWAY_URL,
  makeHandler,
  newKey,
  ORDER,
  post,
  PUBLIC_KEY,
  readError,
  recordingFetch,
  type Responder,
  TOKEN,
  USSD_REQUEST,
} from './server-fixtures.js';

/** The first initiation never answers and ignores its abort signal; later ones succeed. */
function hangsOnceIgnoringAbort(): Responder {
  let asked = 0;
  return (call, signal) => (++asked === 1 ? new Promise<Response>(() => {}) : answerSuccess(call, signal));
}

describe('createSessionHandler: the key’s claim ends with the deadline (issue 16 item 7)', { timeout: 5_000 }, () => {
  it('lets the retry through at once after the 504, with the same paymentReference', async () => {
    let resolved = 0;
    // A resolver naming a new reference each time: only the kept order can make the retry name the same one.
    const order = () => ({ ...ORDER, paymentReference: `order-${++resolved}` });
    const { handler, calls } = makeHandler({ attemptTimeoutMs: 100, timeoutMs: 300, order }, hangsOnceIgnoringAbort());
    const key = { 'idempotency-key': newKey() };

    const error = await readError(await handler(post(USSD_REQUEST, key)), 504, 'gateway_timeout');
    assert.match(error.message, /in time/);
    const retry = await handler(post(USSD_REQUEST, key));
    assert.equal(retry.status, 200, `the retry is not refused as in use: ${retry.status}`);
    assert.deepEqual(
      calls.map((call) => call.body.paymentReference),
      ['order-1', 'order-1'],
    );
    assert.equal(resolved, 1, 'the order was resolved once, then kept');
  });

  it('frees the key for another instance sharing the store', async () => {
    const idempotency = createMemoryIdempotencyStore();
    const hanging = recordingFetch(hangsOnceIgnoringAbort());
    const instance = (fetch: typeof globalThis.fetch) =>
      createSessionHandler({
        baseUrl: GATEWAY_URL,
        publicKey: PUBLIC_KEY,
        accessToken: TOKEN,
        order: () => ORDER,
        fetch,
        idempotency,
        attemptTimeoutMs: 100,
        timeoutMs: 300,
      });
    const key = { 'idempotency-key': newKey() };
    await readError(await instance(hanging.fetch)(post(USSD_REQUEST, key)), 504, 'gateway_timeout');
    const other = recordingFetch();
    assert.equal((await instance(other.fetch)(post(USSD_REQUEST, key))).status, 200);
    assert.equal(other.calls[0]?.body.paymentReference, ORDER.paymentReference);
  });
});
