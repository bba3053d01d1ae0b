import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeHandler, post, readError, SESSION_URL, USSD_REQUEST } from './server-fixtures.js';

const SHOP = 'https://shop.example';
const EVIL = 'https://evil.example';

function preflight(origin: string): Request {
  return new Request(SESSION_URL, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, idempotency-key',
    },
  });
}

describe('createSessionHandler: CORS', () => {
  it('answers a preflight from an allowed origin with the methods and headers the widget uses', async () => {
    const { handler, calls } = makeHandler({ allowedOrigins: [SHOP] });
    const response = await handler(preflight(SHOP));
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), SHOP);
    assert.match(response.headers.get('access-control-allow-methods')!, /POST/);
    assert.match(response.headers.get('access-control-allow-headers')!, /Content-Type/i);
    assert.match(response.headers.get('access-control-allow-headers')!, /Idempotency-Key/i);
    assert.match(response.headers.get('vary')!, /Origin/);
    assert.equal(calls.length, 0);
  });

  it('refuses a preflight and a POST from another origin with 403 JSON, before calling anything', async () => {
    const { handler, calls, events } = makeHandler({ allowedOrigins: [SHOP] });
    const refusedPreflight = await handler(preflight(EVIL));
    await readError(refusedPreflight.clone(), 403, 'origin_not_allowed');
    assert.equal(refusedPreflight.headers.get('access-control-allow-origin'), null);
    const refusedPost = await handler(post(USSD_REQUEST, { origin: EVIL }));
    await readError(refusedPost.clone(), 403, 'origin_not_allowed');
    assert.equal(refusedPost.headers.get('access-control-allow-origin'), null);
    assert.equal(calls.length, 0);
    assert.deepEqual(events.at(-1), { type: 'rejected', status: 403, code: 'origin_not_allowed' });
  });

  it('adds CORS headers to an allowed origin’s answers, errors included', async () => {
    const { handler } = makeHandler({ allowedOrigins: [`${SHOP}/`] });
    const ok = await handler(post(USSD_REQUEST, { origin: SHOP }));
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), SHOP);
    const bad = await handler(post({}, { origin: SHOP }));
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('access-control-allow-origin'), SHOP);
  });

  it('allows any origin with "*"', async () => {
    const { handler } = makeHandler({ allowedOrigins: '*' });
    const response = await handler(post(USSD_REQUEST, { origin: EVIL }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal((await handler(preflight('null'))).status, 204);
  });

  it('allows requests without Origin and same-origin requests by default, and nothing else', async () => {
    const { handler } = makeHandler();
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    const sameOrigin = await handler(post(USSD_REQUEST, { origin: new URL(SESSION_URL).origin }));
    assert.equal(sameOrigin.status, 200);
    assert.equal(sameOrigin.headers.get('access-control-allow-origin'), null);
    // Behind a TLS-terminating proxy the handler sees http: while the browser says https:.
    const behindProxy = await handler(
      new Request('http://shop.test/api/pay/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://shop.test' },
        body: JSON.stringify(USSD_REQUEST),
      }),
    );
    assert.equal(behindProxy.status, 200);
    await readError(await handler(post(USSD_REQUEST, { origin: SHOP })), 403, 'origin_not_allowed');
    await readError(await handler(post(USSD_REQUEST, { origin: 'https://shop.test.evil.example' })), 403, 'origin_not_allowed');
  });
});
