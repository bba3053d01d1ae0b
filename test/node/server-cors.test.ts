import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStatusHandler } from '../../src/server/internal.js';
import { createCorsPolicy } from '../../src/server/http/cors.js';
import { makeHandler, post, readError, SESSION_URL, USSD_REQUEST, STATUS_SECRET } from './server-fixtures.js';

const SHOP = 'https://shop.example';
const EVIL = 'https://evil.example';

function preflight(
  origin: string,
  method = 'POST',
  headers = 'content-type, idempotency-key',
  url = SESSION_URL,
): Request {
  return new Request(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

const STATUS_URL = 'https://shop.test/api/pay/status?paymentReference=order-1';
const varyNames = (response: Response) =>
  (response.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase());

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
    // Behind a TLS-terminating proxy the handler sees http: while the browser says https: another
    // origin (issue 16 item 9), which the merchant lists to allow it.
    const behindProxy = () =>
      new Request('http://shop.test/api/pay/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://shop.test' },
        body: JSON.stringify(USSD_REQUEST),
      });
    await readError(await handler(behindProxy()), 403, 'origin_not_allowed');
    assert.equal((await makeHandler({ allowedOrigins: ['https://shop.test'] }).handler(behindProxy())).status, 200);
    await readError(await handler(post(USSD_REQUEST, { origin: SHOP })), 403, 'origin_not_allowed');
    await readError(
      await handler(post(USSD_REQUEST, { origin: 'https://shop.test.evil.example' })),
      403,
      'origin_not_allowed',
    );
  });

  it('answers an allowed origin with the configured origin, normalized, never the raw header (issue 16 item 9)', async () => {
    const { handler } = makeHandler({ allowedOrigins: ['https://SHOP.example/'] });
    for (const origin of [SHOP, 'https://Shop.Example', 'https://shop.example:443']) {
      const response = await handler(post(USSD_REQUEST, { origin }));
      assert.equal(response.status, 200, origin);
      assert.equal(response.headers.get('access-control-allow-origin'), SHOP, origin);
      assert.equal((await handler(preflight(origin))).headers.get('access-control-allow-origin'), SHOP, origin);
    }
  });

  it('is same-origin only for the same scheme, host and port as the request (issue 16 item 9)', async () => {
    const { handler } = makeHandler();
    const at = (url: string, origin: string) =>
      handler(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify(USSD_REQUEST),
        }),
      );
    await readError(await at('https://shop.test/api/pay/session', 'http://shop.test'), 403, 'origin_not_allowed');
    await readError(await at('https://shop.test/api/pay/session', 'https://shop.test:8443'), 403, 'origin_not_allowed');
    await readError(
      await at('http://shop.test:8080/api/pay/session', 'http://shop.test:9090'),
      403,
      'origin_not_allowed',
    );
    assert.equal((await at('https://shop.test:443/api/pay/session', 'https://shop.test')).status, 200);
    assert.equal((await at('http://localhost:5173/api/pay/session', 'http://localhost:5173')).status, 200);
  });

  it('takes the browser’s Sec-Fetch-Site: same-origin when request.url names another host (Next.js hands route handlers http://localhost), and nothing weaker', async () => {
    const { handler } = makeHandler();
    const at = (headers: Record<string, string>) =>
      handler(
        new Request('http://localhost:3000/pay/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(USSD_REQUEST),
        }),
      );
    const same = await at({ origin: 'https://shop.test', 'sec-fetch-site': 'same-origin' });
    assert.equal(same.status, 200);
    assert.equal(same.headers.get('access-control-allow-origin'), null, 'a same-origin answer needs no CORS header');
    await readError(await at({ origin: 'https://shop.test' }), 403, 'origin_not_allowed');
    await readError(
      await at({ origin: 'https://evil.test', 'sec-fetch-site': 'same-site' }),
      403,
      'origin_not_allowed',
    );
    await readError(
      await at({ origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' }),
      403,
      'origin_not_allowed',
    );
  });

  it('says Vary: Origin on every answer that depends on it: refused, same-origin, no Origin, allowed', async () => {
    const { handler } = makeHandler({ allowedOrigins: [SHOP] });
    const answers = {
      'refused POST': await handler(post(USSD_REQUEST, { origin: EVIL })),
      'refused preflight': await handler(preflight(EVIL)),
      'same-origin POST': await handler(post(USSD_REQUEST, { origin: new URL(SESSION_URL).origin })),
      'POST without Origin': await handler(post(USSD_REQUEST)),
      'allowed POST': await handler(post(USSD_REQUEST, { origin: SHOP })),
      'allowed preflight': await handler(preflight(SHOP)),
      'bad input, same origin': await handler(post({}, { origin: new URL(SESSION_URL).origin })),
    };
    for (const [name, response] of Object.entries(answers)) assert.ok(varyNames(response).includes('origin'), name);
    assert.deepEqual(varyNames(answers['allowed preflight']).sort(), [
      'access-control-request-headers',
      'access-control-request-method',
      'origin',
    ]);
  });

  it('refuses a preflight for a method the endpoint does not take with 405, without CORS grants', async () => {
    const { handler, calls } = makeHandler({ allowedOrigins: [SHOP] });
    for (const method of ['PUT', 'DELETE', 'PATCH', 'GET', 'post']) {
      const response = await handler(preflight(SHOP, method));
      await readError(response.clone(), 405, 'method_not_allowed');
      assert.equal(response.headers.get('access-control-allow-methods'), null, method);
      assert.equal(response.headers.get('access-control-allow-origin'), null, method);
      assert.match(response.headers.get('allow')!, /POST/);
    }
    const allowed = await handler(preflight(SHOP, 'POST'));
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-methods'), 'POST');
    const status = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: () => ({ status: 'PENDING' }),
      allowedOrigins: [SHOP],
    });
    await readError(await status(preflight(SHOP, 'POST', '', STATUS_URL)), 405, 'method_not_allowed');
    const get = await status(preflight(SHOP, 'GET', '', STATUS_URL));
    assert.equal(get.status, 204);
    assert.equal(get.headers.get('access-control-allow-methods'), 'GET, HEAD');
    assert.equal(calls.length, 0);
  });

  it('answers an OPTIONS that is not a preflight (no Access-Control-Request-Method) with Allow only', async () => {
    const { handler } = makeHandler({ allowedOrigins: [SHOP] });
    const response = await handler(new Request(SESSION_URL, { method: 'OPTIONS', headers: { origin: SHOP } }));
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
    assert.equal(response.headers.get('access-control-allow-methods'), null);
    assert.equal(response.headers.get('access-control-allow-headers'), null);
  });

  it('allows only Content-Type and Idempotency-Key as request headers unless allowedHeaders adds some', async () => {
    const { handler } = makeHandler({ allowedOrigins: [SHOP] });
    const asked = await handler(preflight(SHOP, 'POST', 'authorization,content-type,idempotency-key,x-evil'));
    assert.equal(asked.status, 204);
    assert.equal(asked.headers.get('access-control-allow-headers'), 'Content-Type, Idempotency-Key');

    const withOption = makeHandler({ allowedOrigins: [SHOP], allowedHeaders: ['Authorization'] }).handler;
    const sessionAsked = await withOption(preflight(SHOP, 'POST', 'authorization,content-type'));
    assert.equal(
      sessionAsked.headers.get('access-control-allow-headers'),
      'Content-Type, Idempotency-Key, Authorization',
    );

    const status = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: () => ({ status: 'PENDING' }),
      allowedOrigins: [SHOP],
      allowedHeaders: ['Authorization', ' X-CSRF-Token ', 'content-type'],
    });
    const withAuth = await status(preflight(SHOP, 'GET', 'authorization,x-csrf-token', STATUS_URL));
    assert.equal(withAuth.status, 204);
    assert.equal(
      withAuth.headers.get('access-control-allow-headers'),
      'Content-Type, Idempotency-Key, Authorization, X-CSRF-Token',
    );

    const policy = createCorsPolicy([SHOP], 'POST, OPTIONS', { allowedHeaders: ['Authorization'] });
    const reply = policy.preflight(preflight(SHOP, 'POST', 'authorization'));
    assert.equal(reply.headers?.['access-control-allow-headers'], 'Content-Type, Idempotency-Key, Authorization');
    for (const bad of ['', 'Bad Header', 'x:y', 'é'] as const) {
      assert.throws(() => createCorsPolicy([SHOP], 'POST', { allowedHeaders: [bad] }), TypeError, bad);
    }
  });
});
