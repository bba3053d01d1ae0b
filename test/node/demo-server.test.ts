/**
 * demo/server.ts without a browser: the order (`createDemoOrder`) and the backend's routes, called
 * as Fetch handlers. The end-to-end test in Chromium is demo-e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDemoBackend, createDemoOrder, DEMO_PATHS } from '../../demo/server.js';
import type { SessionRequest } from '../../src/schemas.js';
import { readError } from './server-fixtures.js';

const CUSTOMER = { paymentType: 'TRANSFER', fullName: 'Ada Obi', email: 'ada@example.com', mobileNumber: '08012345678' } as const;
const quiet = { info: (_line: string) => {}, warn: (_line: string) => {} };

function sessionPost(url: string, body: unknown = CUSTOMER, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), ...headers },
    body: JSON.stringify(body),
  });
}

describe('demo: createDemoOrder', () => {
  const order = createDemoOrder(() => 'http://127.0.0.1:5173');
  const resolve = (request: Partial<SessionRequest>, url = 'http://evil.example/pay/session') =>
    order({ ...CUSTOMER, ...request } as SessionRequest, { request: new Request(url, { headers: { host: 'evil.example' } }) });

  it('builds callbackUrl and redirectUrl from the configured origin, never from the request’s host', async () => {
    const resolved = await resolve({});
    assert.equal(resolved.callbackUrl, 'http://127.0.0.1:5173/pay/callback');
    assert.equal(resolved.redirectUrl, 'http://127.0.0.1:5173/');
    const unknown = createDemoOrder(() => undefined);
    assert.throws(() => unknown({ ...CUSTOMER } as SessionRequest, { request: new Request('http://evil.example/') }), /origin/);
  });

  it('normalizes the accepted amount to two decimals, as the README’s donation example does', async () => {
    assert.equal((await resolve({})).amount, '5000.00');
    assert.equal((await resolve({ amount: '1500' })).amount, '1500.00');
    assert.equal((await resolve({ amount: '1500.5' })).amount, '1500.50');
    assert.equal((await resolve({ amount: '0100' })).amount, '100.00');
    await assert.rejects(async () => resolve({ amount: '99.99' }), { name: 'OrderError' });
    await assert.rejects(async () => resolve({ currency: 'USD' }), { name: 'OrderError' });
  });
});

describe('demo: createDemoBackend', () => {
  it('uses the listening URL, or PAY_PUBLIC_ORIGIN when set, and answers 500 until it knows one', async () => {
    const backend = createDemoBackend({}, quiet);
    const session = backend.routes[DEMO_PATHS.session]!;
    await readError(await session(sessionPost('http://127.0.0.1:5173/pay/session')), 500, 'internal');
    backend.listeningAt('http://127.0.0.1:5173/');
    assert.equal((await session(sessionPost('http://127.0.0.1:5173/pay/session'))).status, 200);

    const warnings: string[] = [];
    const tunnel = createDemoBackend({ PAY_PUBLIC_ORIGIN: 'https://demo.tunnel.example/ignored/path' }, { info: () => {}, warn: (line: string) => void warnings.push(line) });
    assert.equal((await tunnel.routes[DEMO_PATHS.session]!(sessionPost('http://127.0.0.1:5173/pay/session'))).status, 200);
    assert.equal(warnings.length, 0);
    createDemoBackend({ PAY_PUBLIC_ORIGIN: 'javascript:alert(1)' }, { info: () => {}, warn: (line: string) => void warnings.push(line) });
    assert.match(warnings[0] ?? '', /PAY_PUBLIC_ORIGIN/);
  });

  it('simulates a payment through the server’s error shape, same origin only', async () => {
    const backend = createDemoBackend({}, quiet);
    backend.listeningAt('http://127.0.0.1:5173/');
    const origin = 'http://127.0.0.1:5173';
    const initiated = await backend.routes[DEMO_PATHS.session]!(sessionPost(`${origin}${DEMO_PATHS.session}`));
    const initiatedBody = (await initiated.json()) as { order: { paymentReference: string; statusToken: string } };
    const { paymentReference, statusToken } = initiatedBody.order;
    const simulate = backend.routes[DEMO_PATHS.simulate]!;
    const url = `${origin}${DEMO_PATHS.simulate}`;

    await readError(await simulate(sessionPost(url, { paymentReference, status: 'SUCCESS' }, { origin: 'https://evil.example' })), 403, 'origin_not_allowed');
    await readError(await simulate(new Request(url)), 405, 'method_not_allowed');
    await readError(await simulate(new Request(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })), 415, 'unsupported_media_type');
    await readError(await simulate(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })), 400, 'invalid_json');
    const invalid = await readError(await simulate(sessionPost(url, { paymentReference: 'a b', status: 'PAID' })), 400, 'validation');
    assert.deepEqual(Object.keys(invalid.fields ?? {}).sort(), ['paymentReference', 'status']);
    await readError(await simulate(sessionPost(url, { paymentReference: 'INV/2024/0042', status: 'SUCCESS' })), 404, 'not_found');

    const done = await simulate(sessionPost(url, { paymentReference, status: 'SUCCESS' }, { origin }));
    assert.equal(done.status, 200);
    assert.equal(done.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await done.json(), {
      paymentReference,
      status: 'SUCCESS',
      message: 'Simulated by the demo: the customer approved the payment.',
    });
    const statusUrl = `${origin}${DEMO_PATHS.status}?paymentReference=${paymentReference}`;
    await readError(await backend.routes[DEMO_PATHS.status]!(new Request(statusUrl)), 404, 'not_found');
    const status = await backend.routes[DEMO_PATHS.status]!(new Request(`${statusUrl}&statusToken=${statusToken}`));
    assert.equal(((await status.json()) as { status: string }).status, 'SUCCESS');
  });

  it('says simulate is not available against a real gateway', async () => {
    const backend = createDemoBackend({ PAY_BASE_URL: 'https://gateway.invalid', PAY_PUBLIC_KEY: 'pk', PAY_ACCESS_TOKEN: 'sk' }, quiet);
    const response = await backend.routes[DEMO_PATHS.simulate]!(sessionPost('http://127.0.0.1:5173/pay/simulate', { paymentReference: 'x', status: 'SUCCESS' }));
    await readError(response, 409, 'not_available');
  });
});
