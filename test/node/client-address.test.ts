// The client address `beforeInitiate` sees: the socket's peer by default (a forwarded header a
// client wrote is never believed), and the ready-made readers for proxies and platforms.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressHeader, forwardedFor, type ClientAddress } from '../../src/server/internal.js';
import { makeHandler, post, SESSION_URL, USSD_REQUEST } from './server-fixtures.js';

const SPOOFED = { 'x-forwarded-for': '6.6.6.6', 'x-real-ip': '6.6.6.6', 'cf-connecting-ip': '6.6.6.6' };

/** The address `beforeInitiate` was given for one request through a handler with `clientAddress`. */
async function seenAddress(clientAddress: ClientAddress | undefined, headers: Record<string, string>, env?: unknown) {
  const seen: (string | undefined)[] = [];
  const { handler } = makeHandler({
    clientAddress,
    beforeInitiate: (context) => void seen.push(context.clientAddress),
  });
  const response = await handler(post(USSD_REQUEST, headers), env);
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(seen.length, 1);
  return seen[0];
}

function read(reader: ClientAddress, headers: Record<string, string>) {
  return reader(new Request(SESSION_URL, { headers }), undefined);
}

describe('clientAddress: the default', () => {
  it('ignores forwarded headers a client wrote, and takes the socket’s peer from the adapter', async () => {
    assert.equal(await seenAddress(undefined, SPOOFED), undefined, 'no adapter address: none, not the header');
    const node = { incoming: { socket: { remoteAddress: '203.0.113.7' } } };
    assert.equal(await seenAddress(undefined, SPOOFED, node), '203.0.113.7');
  });

  it('asks Bun.serve’s server for the request’s address', async () => {
    const asked: Request[] = [];
    const bunServer = {
      requestIP: (request: Request) => (asked.push(request), { address: '198.51.100.4', port: 5000 }),
    };
    assert.equal(await seenAddress(undefined, SPOOFED, bunServer), '198.51.100.4');
    assert.equal(asked.length, 1);
  });
});

describe('clientAddress: the option', () => {
  it('may be async, and gets the adapter’s second argument (Hono’s c.env, a worker’s env)', async () => {
    const env = { clientIp: '192.0.2.44' };
    const reader: ClientAddress = async (_request, given) => (given as typeof env).clientIp;
    assert.equal(await seenAddress(reader, {}, env), '192.0.2.44');
  });

  it('is asked only when beforeInitiate runs', async () => {
    let asked = 0;
    const { handler } = makeHandler({ clientAddress: () => (asked++, '192.0.2.1') });
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    assert.equal(asked, 0);
  });
});

describe('forwardedFor({ trustedProxies })', () => {
  it('takes the entry the outermost trusted proxy appended, whatever the client prepended', async () => {
    const one = forwardedFor({ trustedProxies: 1 });
    assert.equal(await read(one, { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' }), '203.0.113.9');
    assert.equal(await read(one, { 'x-forwarded-for': '203.0.113.9' }), '203.0.113.9');
    const two = forwardedFor({ trustedProxies: 2 });
    assert.equal(await read(two, { 'x-forwarded-for': '6.6.6.6,203.0.113.9 , 10.0.0.2' }), '203.0.113.9');
    assert.equal(await read(two, { 'x-forwarded-for': '203.0.113.9' }), undefined, 'fewer hops than proxies: bypassed');
    assert.equal(await seenAddress(one, { 'x-forwarded-for': '6.6.6.6, 2001:db8::1' }), '2001:db8::1');
  });

  it('gives undefined for a missing header or an entry that is not an address, and strips ports', async () => {
    const one = forwardedFor({ trustedProxies: 1 });
    assert.equal(await read(one, {}), undefined);
    assert.equal(await read(one, { 'x-forwarded-for': '1.2.3.4, unknown' }), undefined);
    assert.equal(await read(one, { 'x-forwarded-for': '1.2.3.4, 999.1.1.1' }), undefined);
    assert.equal(await read(one, { 'x-forwarded-for': '203.0.113.9:4711' }), '203.0.113.9');
    assert.equal(await read(one, { 'x-forwarded-for': '[2001:db8::7]:4711' }), '2001:db8::7');
  });

  it('refuses a trustedProxies that is not a whole number of 1 or more', () => {
    for (const trustedProxies of [0, -1, 1.5, Number.NaN, '1' as never]) {
      assert.throws(() => forwardedFor({ trustedProxies }), /trustedProxies must be a whole number/);
    }
  });
});

describe('addressHeader(name)', () => {
  it('reads the named header only, trimmed, and only an IP address', async () => {
    const cloudflare = addressHeader('cf-connecting-ip');
    assert.equal(
      await read(cloudflare, { 'cf-connecting-ip': ' 198.51.100.20 ', 'x-forwarded-for': '6.6.6.6' }),
      '198.51.100.20',
    );
    assert.equal(await read(cloudflare, { 'cf-connecting-ip': '::ffff:198.51.100.20' }), '::ffff:198.51.100.20');
    assert.equal(await read(cloudflare, { 'x-forwarded-for': '6.6.6.6' }), undefined);
    assert.equal(await read(cloudflare, { 'cf-connecting-ip': '<script>' }), undefined);
    assert.equal(await read(cloudflare, { 'cf-connecting-ip': 'abc:' }), undefined);
    assert.equal(await seenAddress(cloudflare, { 'cf-connecting-ip': '198.51.100.20' }), '198.51.100.20');
  });
});
