// Issue 24, defect 10: when the token endpoint itself refuses the merchant's keys (400 or 401), every
// payment asked it again: 50 payments made 50 token requests and 50 reports. The back-off that
// follows a refused renewal applies here too: at most one token request per `refusedBackoffMs`
// (then one more try), and the configuration error reported once per period.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGateway, createSessionHandler, type SessionEvent } from '../../src/server/internal.js';
import { BASE_URL, fakeGateway, json, PUBLIC_KEY, SECRET_KEY } from './gateway-fixtures.js';
import { ORDER, post, TRANSFER_REQUEST } from './server-fixtures.js';

/** A shop whose dashboard keys the gateway's token endpoint refuses with `status`. */
function shopWithRefusedKeys(status: 400 | 401) {
  const fake = fakeGateway(() =>
    json(status, { message: status === 400 ? 'Bad Request' : 'Invalid merchant key provided', error: 'INPUT' }),
  );
  const gateway = createGateway({
    baseUrl: BASE_URL,
    publicKey: PUBLIC_KEY,
    secretKey: SECRET_KEY,
    fetch: fake.fetch,
    refusedBackoffMs: 30_000,
  });
  const events: SessionEvent[] = [];
  let n = 0;
  const handler = createSessionHandler({
    gateway,
    order: () => ({ ...ORDER, paymentReference: `order-${++n}` }),
    onEvent: (event) => void events.push(event),
  });
  const reports = () => events.filter((event) => event.type === 'internal-error' && event.where === 'token');
  return {
    handler,
    gateway,
    tokenRequests: () => fake.tokenRequests().length,
    initiations: () => fake.seen.length - fake.tokenRequests().length,
    reports,
  };
}

describe('refused keys at the token endpoint (issue 24, defect 10)', () => {
  for (const status of [400, 401] as const) {
    it(`makes one token request for 50 payments and 50 more at once, reporting it once, when encrypt/keys answers ${status}`, async (t) => {
      t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
      const { handler, tokenRequests, initiations, reports } = shopWithRefusedKeys(status);
      const answers: number[] = [];
      for (let i = 0; i < 50; i += 1) answers.push((await handler(post(TRANSFER_REQUEST))).status);
      answers.push(
        ...(await Promise.all(Array.from({ length: 50 }, async () => (await handler(post(TRANSFER_REQUEST))).status))),
      );
      assert.ok(
        answers.every((answer) => answer === 500),
        `every customer is told payments are not set up: ${answers}`,
      );
      assert.equal(tokenRequests(), 1, 'token requests in one refusedBackoffMs');
      assert.equal(initiations(), 0);
      assert.equal(reports().length, 1, JSON.stringify(reports()));
    });
  }

  it('tries once more after each period, 50 concurrent payments or not, and reports once per period', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { handler, gateway, tokenRequests, reports } = shopWithRefusedKeys(401);
    await Promise.all(Array.from({ length: 50 }, () => handler(post(TRANSFER_REQUEST))));
    assert.deepEqual([tokenRequests(), reports().length], [1, 1], 'fifty at once share one request and one report');
    t.mock.timers.tick(30_001);
    await Promise.all(Array.from({ length: 50 }, () => handler(post(TRANSFER_REQUEST))));
    assert.deepEqual([tokenRequests(), reports().length], [2, 2]);
    // The status handler's and the reconciler's queries are held back too.
    assert.equal((await gateway.query('order-1')).kind, 'unverified');
    assert.equal(tokenRequests(), 2);
  });
});
