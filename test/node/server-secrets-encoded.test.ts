import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, MAX_REMEMBERED_TOKENS } from '../../src/server/http/redact.js';
import { makeHandler, ORDER, post, type Responder, transferEnvelope, TRANSFER_REQUEST } from './server-fixtures.js';

/** Secrets with the characters that encodings change: `/`, `+`, `=`. */
const TOKEN = 'eyJhbGciOi/Jz+abc=';
const PUBLIC_KEY = 'pk_live/abc+def';
const phpEscaped = (secret: string) => JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/');
const ENCODED = [
  TOKEN,
  PUBLIC_KEY,
  phpEscaped(TOKEN),
  phpEscaped(PUBLIC_KEY),
  encodeURIComponent(TOKEN),
  encodeURIComponent(PUBLIC_KEY),
];

function handlerWith(respond: Responder) {
  return makeHandler({ accessToken: TOKEN, publicKey: PUBLIC_KEY }, respond);
}

async function seen(response: Response) {
  return [await response.text(), JSON.stringify([...response.headers])].join('\n');
}

function assertClean(text: string, where: string) {
  for (const secret of ENCODED) assert.ok(!text.includes(secret), `${where} leaks ${secret}: ${text}`);
  assert.doesNotMatch(text, /eyJhbGciOi/, `${where} leaks part of the token: ${text}`);
}

describe('createSessionHandler: secrets in their encoded forms', () => {
  it('answers a success with the spec envelope only, not what the gateway echoed beside it', async () => {
    const payments = transferEnvelope('order-42').data.payments;
    const body = `{"status":"SUCCESS","data":{"code":"00","message":"ok","payments":${JSON.stringify({ ...payments, customerBvn: '22212345678' })},"request":{"publicKey":"${phpEscaped(PUBLIC_KEY)}","auth":"Bearer ${phpEscaped(TOKEN)}","cb":"https://x/?t=${encodeURIComponent(TOKEN)}"},"internalMerchantId":"M-991"}}`;
    const { handler } = handlerWith(() => new Response(body));
    const response = await handler(post(TRANSFER_REQUEST));
    assert.equal(response.status, 200);
    const text = await seen(response);
    assertClean(text, 'the response');
    assert.doesNotMatch(text, /M-991|22212345678|request/);
    const answered = JSON.parse(text.split('\n')[0]!);
    // A TRANSFER's validity (session-order-extras.test.ts) is the server's own, not the gateway's words.
    const order = {
      paymentReference: 'order-42',
      amount: '2500.00',
      currency: 'NGN',
      expiresAt: answered.order.expiresAt,
      expiresInMs: answered.order.expiresInMs,
    };
    assert.deepEqual(answered, { status: 'SUCCESS', data: { code: '00', message: 'ok', payments }, order });
  });

  it('redacts JSON-escaped, URL-encoded and Bearer forms from gateway messages and events', async () => {
    const message = `bad token https://gw/x?access_token=${encodeURIComponent(TOKEN)} key ${JSON.stringify({ pk: PUBLIC_KEY }).replaceAll('/', '\\/')} auth Bearer ${phpEscaped(TOKEN)}`;
    const { handler, events } = handlerWith(() => Response.json({ message }, { status: 500 }));
    const response = await handler(post(TRANSFER_REQUEST));
    assert.equal(response.status, 502);
    assertClean(await seen(response), 'the response');
    assertClean(JSON.stringify(events), 'onEvent');
    assert.match(JSON.stringify(events), /\[redacted\]/);
  });

  it('redacts before it shortens a long message, so no prefix of the token survives', async () => {
    const secret = 'sk_live_0123456789abcdefSECRET';
    const { handler, events } = makeHandler({ accessToken: secret }, () =>
      Response.json({ message: `${'x'.repeat(285)} token=${secret} rejected` }, { status: 500 }),
    );
    const text = await (await handler(post(TRANSFER_REQUEST))).text();
    assert.doesNotMatch(text, /sk_live/);
    assert.doesNotMatch(JSON.stringify(events), /sk_live/);
  });

  it("shows the customer a generic message for the gateway's 401 and 403, and logs its words redacted", async () => {
    for (const status of [401, 403]) {
      const { handler, events } = handlerWith(() =>
        Response.json({ message: `Token ${TOKEN} is not valid for this merchant` }, { status }),
      );
      const response = await handler(post(TRANSFER_REQUEST));
      const text = await response.text();
      assert.equal(response.status, 502);
      assert.doesNotMatch(text, /merchant|Token/);
      const gateway = events.find((e) => e.type === 'gateway');
      assert.equal(gateway?.type === 'gateway' && gateway.detail, 'Token [redacted] is not valid for this merchant');
    }
  });

  it("keeps the customer's e-mail, mobile number and full name out of onEvent details", async () => {
    const { handler, events } = makeHandler(
      {
        order: (request) => {
          if (request.amount === '2') throw new Error(`no account for ${request.email}`);
          return ORDER;
        },
      },
      () => Response.json({ message: 'Customer Ada Obi (ada@example.ng, 08030000000) is blocked' }, { status: 500 }),
    );
    await handler(post(TRANSFER_REQUEST));
    await handler(post({ ...TRANSFER_REQUEST, amount: '2' }));
    const logged = JSON.stringify(events);
    assert.doesNotMatch(logged, /ada@example|Ada Obi|8030000000/, logged);
    assert.match(logged, /is blocked/);
  });
});

describe('createRedactor', () => {
  it(`remembers the last ${MAX_REMEMBERED_TOKENS} tokens of a rotating source, and always the permanent secrets`, () => {
    const redactor = createRedactor(['pk_permanent_1234']);
    const tokens = Array.from({ length: MAX_REMEMBERED_TOKENS + 4 }, (_, i) => `sk_rotated_${i}_abcdef`);
    for (const token of tokens) redactor.add(token);
    const text = redactor.text(tokens.join(' ') + ' pk_permanent_1234');
    assert.ok(text.includes(tokens[0]!), 'the oldest token is forgotten');
    for (const token of tokens.slice(-MAX_REMEMBERED_TOKENS)) assert.ok(!text.includes(token), token);
    assert.ok(!text.includes('pk_permanent_1234'));
  });

  it('still catches a forgotten token after Bearer', () => {
    const redactor = createRedactor([]);
    assert.equal(redactor.text('Authorization: Bearer sk_forgotten.a-b_c/d+e='), 'Authorization: Bearer [redacted]');
    assert.equal(redactor.text('auth=Bearer%20sk_forgotten%2Fx'), 'auth=Bearer%20[redacted]');
  });
});
