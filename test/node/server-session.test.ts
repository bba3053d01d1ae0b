import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { readEnvelope } from '../../src/contract/schemas.js';
import { OrderError, type SessionRequest } from '../../src/server/internal.js';
import {
  INITIATE_URL,
  makeHandler,
  ORDER,
  post,
  postWithoutKey,
  PUBLIC_KEY,
  readError,
  TOKEN,
  TRANSFER_REQUEST,
  transferEnvelope,
  USSD_REQUEST,
  ussdEnvelope,
} from './server-fixtures.js';

/** The gateway request's fields that come from the server (key and order), never from the widget. */
const DECIDED_BY_SERVER = {
  publicKey: PUBLIC_KEY,
  amount: '2500.00',
  currency: 'NGN',
  country: 'NG',
  paymentReference: 'order-42',
  callbackUrl: ORDER.callbackUrl,
  redirectUrl: ORDER.redirectUrl,
};

describe('createSessionHandler: happy paths', () => {
  it('sends the spec request for USSD and passes the envelope through unchanged', async () => {
    const { handler, calls } = makeHandler();
    const response = await handler(post(USSD_REQUEST, { 'idempotency-key': 'key-ussd-0001' }));

    assert.equal(response.status, 200);
    const { paymentReference, amount, currency } = ORDER;
    assert.deepEqual(await response.json(), {
      ...ussdEnvelope(paymentReference),
      order: { paymentReference, amount, currency },
    });
    assert.equal(calls.length, 1);
    const [call] = calls;
    assert.equal(call!.url, INITIATE_URL);
    assert.equal(call!.method, 'POST');
    assert.equal(call!.headers.get('authorization'), `Bearer ${TOKEN}`);
    assert.match(call!.headers.get('content-type')!, /^application\/json/);
    assert.deepEqual(call!.body, {
      ...DECIDED_BY_SERVER,
      fullName: 'Ada Obi',
      mobileNumber: '+2348030000000',
      email: 'ada@example.ng',
      paymentType: 'USSD',
      bankCode: '058',
    });
    assert.ok(
      Object.values(call!.body).every((value) => typeof value === 'string'),
      'all fields are strings',
    );
  });

  it('sends TRANSFER without bankCode even when the client sent one, with the server amount', async () => {
    const { handler, calls } = makeHandler();
    const response = await handler(post({ ...TRANSFER_REQUEST, bankCode: '058', amount: '5' }));

    assert.equal(response.status, 200);
    const read = readEnvelope(await response.json(), 'TRANSFER');
    assert.ok(read.ok);
    assert.equal(read.instructions.paymentReference, 'order-42');
    assert.deepEqual(call(calls), {
      ...DECIDED_BY_SERVER,
      fullName: 'Ada Obi',
      mobileNumber: '08030000000',
      email: 'ada@example.ng',
      paymentType: 'TRANSFER',
      amountControl: 'FIXEDAMOUNT',
      walletDaysActive: '1',
    });
    assert.equal('bankCode' in call(calls), false);
  });

  it('gives the order resolver the validated request and the original Request', async () => {
    const seen: Array<{ request: SessionRequest; url: string }> = [];
    const { handler } = makeHandler({
      order: (request, context) => {
        seen.push({ request, url: context.request.url });
        return ORDER;
      },
    });
    await handler(post({ ...USSD_REQUEST, fullName: '  Ada Obi  ', extra: 'ignored' }));
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.request.fullName, 'Ada Obi');
    assert.equal(seen[0]!.request.mobileNumber, '+2348030000000');
    assert.equal('extra' in seen[0]!.request, false);
    assert.equal(seen[0]!.url, 'https://shop.test/api/pay/session');
  });

  it('fills currency, country and a paymentReference derived from the Idempotency-Key when the order leaves them out', async () => {
    const { handler, calls } = makeHandler({
      order: () => ({ amount: '100', callbackUrl: ORDER.callbackUrl, redirectUrl: ORDER.redirectUrl }),
    });
    await handler(post(USSD_REQUEST, { 'idempotency-key': 'attempt-0001' }));
    await handler(post(USSD_REQUEST, { 'idempotency-key': 'attempt-0002' }));
    assert.equal(calls[0]!.body.currency, 'NGN');
    assert.equal(calls[0]!.body.country, 'NG');
    // SHA-256("attempt-0001"), its first 16 bytes in hex.
    const digest = createHash('sha256').update('attempt-0001').digest('hex').slice(0, 32);
    assert.equal(calls[0]!.body.paymentReference, `pw-${digest}`);
    assert.notEqual(calls[0]!.body.paymentReference, calls[1]!.body.paymentReference);
  });

  it('makes a random paymentReference for a request without a key, when keys are optional', async () => {
    const { handler, calls } = makeHandler({
      requireIdempotencyKey: false,
      order: () => ({ amount: '100', callbackUrl: ORDER.callbackUrl, redirectUrl: ORDER.redirectUrl }),
    });
    await handler(postWithoutKey(USSD_REQUEST));
    await handler(postWithoutKey(USSD_REQUEST));
    assert.match(String(calls[0]!.body.paymentReference), /^pw-[0-9a-f-]{36}$/);
    assert.notEqual(calls[0]!.body.paymentReference, calls[1]!.body.paymentReference);
  });

  it('calls an accessToken function per request (rotating tokens)', async () => {
    let n = 0;
    const { handler, calls } = makeHandler({ accessToken: async () => `sk_rotating_${++n}_abcdef` });
    await handler(post(USSD_REQUEST));
    await handler(post(USSD_REQUEST));
    assert.deepEqual(
      calls.map((c) => c.headers.get('authorization')),
      ['Bearer sk_rotating_1_abcdef', 'Bearer sk_rotating_2_abcdef'],
    );
  });

  it('posts under a base URL with a path prefix and a trailing slash', async () => {
    const { handler, calls } = makeHandler({ baseUrl: 'https://gw.test/proxy/' });
    await handler(post(USSD_REQUEST));
    assert.equal(calls[0]!.url, 'https://gw.test/proxy/api/v2/payments/initiates');
  });
});

describe('createSessionHandler: the order resolver', () => {
  it('answers an OrderError with its status, message and fields, without calling the gateway', async () => {
    const { handler, calls } = makeHandler({
      order: (request) => {
        const amount = Number(request.amount);
        if (!(amount >= 500 && amount <= 500_000)) {
          throw new OrderError('Donations go from 500 to 500000.', { fields: { amount: 'Choose 500 to 500000.' } });
        }
        return { ...ORDER, amount: amount.toFixed(2) };
      },
    });
    const refused = await readError(await handler(post({ ...USSD_REQUEST, amount: '20' })), 422, 'order_refused');
    assert.equal(refused.message, 'Donations go from 500 to 500000.');
    assert.deepEqual(refused.fields, { amount: 'Choose 500 to 500000.' });
    assert.equal(calls.length, 0);

    const accepted = await handler(post({ ...USSD_REQUEST, amount: '750' }));
    assert.equal(accepted.status, 200);
    assert.equal(calls[0]!.body.amount, '750.00');
  });

  it('uses an OrderError status in the 4xx range only', async () => {
    const gone = makeHandler({ order: () => Promise.reject(new OrderError('Sold out.', { status: 409 })) });
    await readError(await gone.handler(post(USSD_REQUEST)), 409, 'order_refused');
    const bogus = makeHandler({ order: () => Promise.reject(new OrderError('Nope.', { status: 200 })) });
    await readError(await bogus.handler(post(USSD_REQUEST)), 422, 'order_refused');
  });

  it('answers 500 internal, with a generic message, when the resolver throws something else', async () => {
    const { handler, calls, events } = makeHandler({
      order: () => {
        throw new Error('database password hunter2 rejected');
      },
    });
    const error = await readError(await handler(post(USSD_REQUEST)), 500, 'internal');
    assert.doesNotMatch(error.message, /hunter2|database/);
    assert.equal(calls.length, 0);
    assert.deepEqual(
      events.filter((e) => e.type !== 'warning').map((e) => e.type),
      ['internal-error'],
    );
  });

  it('answers 500 internal when the resolver returns an invalid order', async () => {
    for (const bad of [
      { ...ORDER, amount: 2500 },
      { ...ORDER, amount: '-5' },
      { ...ORDER, amount: '0' },
      { ...ORDER, callbackUrl: 'not a url' },
      { ...ORDER, currency: 'naira' },
      undefined,
    ]) {
      const { handler, calls, events } = makeHandler({ order: () => bad as never });
      await readError(await handler(post(USSD_REQUEST)), 500, 'internal');
      assert.equal(calls.length, 0);
      assert.equal(events.at(-1)?.type, 'internal-error');
    }
  });

  it('answers 500 internal when the accessToken function fails or gives nothing', async () => {
    for (const accessToken of [() => Promise.reject(new Error('vault down')), () => '']) {
      const { handler, calls } = makeHandler({ accessToken });
      await readError(await handler(post(USSD_REQUEST)), 500, 'internal');
      assert.equal(calls.length, 0);
    }
  });

  it('keeps answering when onEvent throws or rejects', async () => {
    for (const onEvent of [
      () => {
        throw new Error('logger broke');
      },
      () => Promise.reject(new Error('logger broke')),
    ]) {
      const { handler } = makeHandler({ onEvent });
      assert.equal((await handler(post(USSD_REQUEST))).status, 200);
      assert.equal((await handler(post({}))).status, 400);
    }
  });

  it('refuses to start without its required options', () => {
    assert.throws(() => makeHandler({ baseUrl: '' }), /baseUrl/);
    assert.throws(() => makeHandler({ baseUrl: 'gateway.test' }), /absolute URL/);
    assert.throws(() => makeHandler({ publicKey: '' }), /publicKey/);
    assert.throws(() => makeHandler({ order: undefined as never }), /order/);
  });
});

function call(calls: Array<{ body: Record<string, unknown> }>) {
  assert.equal(calls.length, 1);
  return calls[0]!.body;
}
