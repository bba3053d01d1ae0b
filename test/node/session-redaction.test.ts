// Issue 16 item 3, the session handler's part: given `gateway: createGateway({ secretKey })`, the
// handler redacts with everything the gateway knows (the secret key, the token it made), not only
// the public key: an order resolver's error quoting them reaches neither the customer nor onEvent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGateway, createSessionHandler, OrderError, type SessionEvent } from '../../src/server/internal.js';
import { BASE_URL, fakeGateway, PUBLIC_KEY, SECRET_KEY, tokenAnswer } from './gateway-fixtures.js';
import { newKey, ORDER, post, ussdEnvelope, USSD_REQUEST } from './server-fixtures.js';

const TOKEN = 'live-token-Xq7Lm2Pz9Rt4';

function gatewayWithToken() {
  const fake = fakeGateway((request) => {
    if (request.path.endsWith('/encrypt/keys')) return tokenAnswer(TOKEN);
    const reference = (JSON.parse(request.body) as { paymentReference: string }).paymentReference;
    return Response.json(ussdEnvelope(reference));
  });
  return createGateway({ baseUrl: BASE_URL, publicKey: PUBLIC_KEY, secretKey: SECRET_KEY, fetch: fake.fetch });
}

describe('createSessionHandler: redaction with what the gateway knows (issue 16 item 3)', () => {
  it('an OrderError quoting the secret key or the live token reaches neither the reply nor onEvent', async () => {
    const gateway = gatewayWithToken();
    const events: SessionEvent[] = [];
    let calls = 0;
    const handler = createSessionHandler({
      gateway,
      onEvent: (event) => void events.push(event),
      order: () => {
        // The first payment makes the gateway fetch its token; the second order quotes both secrets.
        if (calls++ === 0) return ORDER;
        throw new OrderError(`Refused for ${SECRET_KEY} with token ${TOKEN}`, {
          fields: { email: `key ${SECRET_KEY}, token ${TOKEN}` },
        });
      },
    });
    assert.equal((await handler(post(USSD_REQUEST, { 'idempotency-key': newKey() }))).status, 200);
    const refused = await handler(post(USSD_REQUEST, { 'idempotency-key': newKey() }));
    const text = await refused.text();
    assert.equal(refused.status, 422, text);
    const seen = text + JSON.stringify(events);
    assert.ok(seen.includes('[redacted]'), seen);
    for (const secret of [SECRET_KEY, TOKEN, PUBLIC_KEY])
      assert.ok(!seen.includes(secret), `${secret} leaked: ${seen}`);
  });
});
