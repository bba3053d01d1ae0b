import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OrderError, type SessionHandlerOptions } from '../../src/server/internal.js';
import {
  makeHandler,
  ORDER,
  post,
  PUBLIC_KEY,
  type Responder,
  TOKEN,
  TRANSFER_REQUEST,
  ussdEnvelope,
  USSD_REQUEST,
} from './server-fixtures.js';

const SECRETS = [TOKEN, PUBLIC_KEY];
const ROTATED = 'sk_rotated_5c0ffee5c0ffee';

type Scenario = { name: string; respond?: Responder; options?: Partial<SessionHandlerOptions>; body?: unknown };

/** Gateways that echo what they were sent, in every place an answer can carry it. */
const SCENARIOS: Scenario[] = [
  { name: 'success' },
  {
    name: 'a success envelope echoing the request',
    respond: (call) =>
      Response.json({ ...ussdEnvelope('order-42'), request: call.body, auth: call.headers.get('authorization') }),
  },
  {
    name: 'a 401 quoting the token',
    respond: () => Response.json({ message: `Token ${TOKEN} expired` }, { status: 401 }),
  },
  {
    name: 'a 403 quoting the key',
    respond: () => Response.json({ data: { message: `Unknown key ${PUBLIC_KEY}` } }, { status: 403 }),
  },
  {
    name: 'a decline quoting both',
    respond: () => Response.json({ status: 'FAILED', data: { message: `${PUBLIC_KEY}/${TOKEN}` } }),
  },
  {
    name: 'an incomplete envelope quoting the key',
    respond: () => Response.json({ status: 'SUCCESS', data: { message: `for ${PUBLIC_KEY}`, payments: {} } }),
  },
  {
    name: 'a network error quoting the token',
    respond: () => Promise.reject(new TypeError(`connect to ${TOKEN} failed`)),
  },
  { name: 'a validation error', body: { ...USSD_REQUEST, email: TOKEN } },
  {
    name: 'an order resolver failing with the secrets in its message',
    options: {
      order: () => {
        throw new Error(`bad config ${TOKEN} ${PUBLIC_KEY}`);
      },
    },
  },
  {
    name: 'an order refusal quoting the key',
    options: {
      order: () => {
        throw new OrderError(`refused for ${PUBLIC_KEY}`);
      },
    },
  },
  {
    name: 'a token function that fails quoting its token',
    options: { accessToken: () => Promise.reject(new Error(`cannot refresh ${ROTATED}`)) },
  },
  {
    name: 'a rotated token echoed by the gateway',
    options: { accessToken: async () => ROTATED },
    respond: (call) => Response.json({ message: `bad ${call.headers.get('authorization')}` }, { status: 500 }),
  },
];

describe('createSessionHandler: secrets', () => {
  for (const scenario of SCENARIOS) {
    it(`keeps the token and public key out of the response and onEvent: ${scenario.name}`, async () => {
      const { handler, events } = makeHandler({ order: () => ORDER, ...scenario.options }, scenario.respond);
      for (const body of [scenario.body ?? USSD_REQUEST, TRANSFER_REQUEST]) {
        const response = await handler(post(body, { 'idempotency-key': `key-${Math.random()}` }));
        const seen = [await response.text(), JSON.stringify([...response.headers])].join('\n');
        for (const secret of [...SECRETS, ROTATED])
          assert.ok(!seen.includes(secret), `response leaks ${secret}: ${seen}`);
        assert.ok(events.length > 0);
      }
      const logged = JSON.stringify(events);
      for (const secret of [...SECRETS, ROTATED])
        assert.ok(!logged.includes(secret), `onEvent leaks ${secret}: ${logged}`);
    });
  }

  it('still passes a clean envelope through byte for byte, followed by the order', async () => {
    const text = JSON.stringify(ussdEnvelope('order-42'));
    const { handler } = makeHandler({}, () => new Response(text));
    const order = JSON.stringify({ paymentReference: 'order-42', amount: '2500.00', currency: 'NGN' });
    assert.equal(await (await handler(post(USSD_REQUEST))).text(), `${text.slice(0, -1)},"order":${order}}`);
  });
});
