// Issue 16 (attack review), the gateway client's part: each test failed on the code before its fix.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAYMENT_REFERENCE } from '../../src/rules.js';
import { createGateway, type GatewayOptions } from '../../src/server/index.js';
import { BASE_URL, fakeGateway, json, PUBLIC_KEY, SECRET_KEY, tokenAnswer, type Seen } from './gateway-fixtures.js';

const TOKEN = 'tOk3n+One/AAAAbbbbCCCCdddd==';

function keyedGateway(answer: (request: Seen, count: number) => Response | Promise<Response>, options: Partial<GatewayOptions> = {}) {
  const fake = fakeGateway((request, count) => (request.path === '/api/v2/encrypt/keys' ? tokenAnswer(TOKEN) : answer(request, count)));
  const gateway = createGateway({ baseUrl: BASE_URL, publicKey: PUBLIC_KEY, secretKey: SECRET_KEY, fetch: fake.fetch, ...options });
  return { gateway, ...fake };
}

/** A paid query answer whose `payments` are exactly `payments`. */
function paidAnswer(payments: Record<string, unknown>): Response {
  return json(200, { status: 'SUCCESS', data: { code: '00', message: 'Successful', payments } });
}

describe('issue 16 item 4: references that change the query URL', () => {
  it('refuses references made only of dots, and dot segments a URL would resolve', () => {
    for (const bad of ['.', '..', '...', '....', 'a/..', '../a', 'a/./b', './a', 'INV/..']) {
      assert.equal(PAYMENT_REFERENCE.test(bad), false, bad);
    }
    for (const good of ['INV/2024/0042', 'order:42.a_b-c', 'a.b', '..a', 'a..', 'v1.2/..x', '.hidden']) {
      assert.equal(PAYMENT_REFERENCE.test(good), true, good);
    }
  });

  it('sends no query for "." or "..", so the token never goes to another path', async () => {
    const { gateway, seen } = keyedGateway(() => paidAnswer({ amount: 5000, currency: 'NGN' }));
    for (const reference of ['.', '..']) {
      const outcome = await gateway.query(reference);
      assert.equal(outcome.kind, 'unverified', reference);
    }
    assert.deepEqual(seen.filter((request) => request.path.startsWith('/api/v3/') || request.path.startsWith('/api/v2/payments')), []);
  });

  for (const [name, payments] of [
    ['without a paymentReference', { amount: 5000, currency: 'NGN' }],
    ['with an empty paymentReference', { paymentReference: '', amount: 5000, currency: 'NGN' }],
    ['with another paymentReference', { paymentReference: 'SOMEONE-ELSE', amount: 5000, currency: 'NGN' }],
    ['with a paymentReference that is not a string', { paymentReference: 1042, amount: 5000, currency: 'NGN' }],
  ] as const) {
    it(`reads a paid answer ${name} as unverified, never SUCCESS`, async () => {
      const { gateway } = keyedGateway(() => paidAnswer(payments));
      const outcome = await gateway.query('ORDER-1042');
      assert.deepEqual(outcome, { kind: 'unverified', reason: 'other-reference', httpStatus: 200 });
    });
  }
});
