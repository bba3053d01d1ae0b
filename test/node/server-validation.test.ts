import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  makeHandler,
  ORDER,
  post,
  postWithoutKey,
  readError,
  SESSION_URL,
  TRANSFER_REQUEST,
  USSD_REQUEST,
} from './server-fixtures.js';

const MAX_BODY_BYTES = 1024;

type BadInput = {
  name: string;
  request: () => Request;
  status: number;
  code: string;
  /** Every field the answer must name, and no other. */
  fields?: string[];
};

const raw = (init: RequestInit) => () => new Request(SESSION_URL, init);
const json =
  (body: unknown, headers: Record<string, string> = {}) =>
  () =>
    post(body, headers);
const ussd = (changes: Record<string, unknown>) => json({ ...USSD_REQUEST, ...changes });
const without = (field: string, base: Record<string, unknown> = USSD_REQUEST) => {
  const copy: Record<string, unknown> = { ...base };
  delete copy[field];
  return json(copy);
};
const field = (name: string, value: unknown) => ({ request: ussd({ [name]: value }), fields: [name] });
const withKey = (key: string) => json(USSD_REQUEST, { 'idempotency-key': key });

function streamed(bytes: number): () => Request {
  return () =>
    new Request(SESSION_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // A stream has no Content-Length: the limit must be counted as the bytes arrive.
      body: new ReadableStream({
        start(controller) {
          for (let sent = 0; sent < bytes; sent += 256) controller.enqueue(new Uint8Array(256).fill(0x20));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
}

const BAD_INPUTS: BadInput[] = [
  { name: 'GET', request: raw({ method: 'GET' }), status: 405, code: 'method_not_allowed' },
  {
    name: 'PUT',
    request: raw({ method: 'PUT', body: JSON.stringify(USSD_REQUEST) }),
    status: 405,
    code: 'method_not_allowed',
  },
  { name: 'DELETE', request: raw({ method: 'DELETE' }), status: 405, code: 'method_not_allowed' },
  {
    name: 'no Content-Type',
    request: raw({ method: 'POST', body: new Blob([JSON.stringify(USSD_REQUEST)]) }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'text/plain',
    request: json(USSD_REQUEST, { 'content-type': 'text/plain' }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'a form post',
    request: json('paymentType=USSD', { 'content-type': 'application/x-www-form-urlencoded' }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'application/jsonp',
    request: json(USSD_REQUEST, { 'content-type': 'application/jsonp' }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'a body over the limit, declared',
    request: json({ ...USSD_REQUEST, fullName: 'A'.repeat(2000) }),
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'a body over the limit, streamed without Content-Length',
    request: streamed(4096),
    status: 413,
    code: 'payload_too_large',
  },
  { name: 'an empty body', request: json(''), status: 400, code: 'invalid_json' },
  { name: 'truncated JSON', request: json('{"paymentType":"USSD",'), status: 400, code: 'invalid_json' },
  {
    name: 'bytes that are not UTF-8',
    request: raw({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x22, 0xff, 0xfe, 0x22]),
    }),
    status: 400,
    code: 'invalid_json',
  },
  { name: 'a JSON array', request: json([USSD_REQUEST]), status: 400, code: 'validation', fields: ['body'] },
  { name: 'JSON null', request: json('null'), status: 400, code: 'validation', fields: ['body'] },
  { name: 'a JSON string', request: json('"USSD"'), status: 400, code: 'validation', fields: ['body'] },
  { name: 'no paymentType', request: without('paymentType'), status: 400, code: 'validation', fields: ['paymentType'] },
  { name: 'paymentType CARD', ...field('paymentType', 'CARD'), status: 400, code: 'validation' },
  { name: 'paymentType in lower case', ...field('paymentType', 'ussd'), status: 400, code: 'validation' },
  { name: 'no fullName', request: without('fullName'), status: 400, code: 'validation', fields: ['fullName'] },
  { name: 'a one-letter fullName', ...field('fullName', 'A'), status: 400, code: 'validation' },
  { name: 'a blank fullName', ...field('fullName', '    '), status: 400, code: 'validation' },
  { name: 'a 101-character fullName', ...field('fullName', 'A'.repeat(101)), status: 400, code: 'validation' },
  { name: 'a numeric fullName', ...field('fullName', 42), status: 400, code: 'validation' },
  { name: 'no email', request: without('email', TRANSFER_REQUEST), status: 400, code: 'validation', fields: ['email'] },
  { name: 'an email without @', ...field('email', 'ada.example.ng'), status: 400, code: 'validation' },
  { name: 'an email without domain', ...field('email', 'ada@'), status: 400, code: 'validation' },
  {
    name: 'no mobileNumber',
    request: without('mobileNumber'),
    status: 400,
    code: 'validation',
    fields: ['mobileNumber'],
  },
  { name: 'a mobileNumber with letters', ...field('mobileNumber', '0803CALLME'), status: 400, code: 'validation' },
  { name: 'a 5-digit mobileNumber', ...field('mobileNumber', '12345'), status: 400, code: 'validation' },
  { name: 'a 20-digit mobileNumber', ...field('mobileNumber', '1'.repeat(20)), status: 400, code: 'validation' },
  {
    name: 'USSD without bankCode',
    request: without('bankCode'),
    status: 400,
    code: 'validation',
    fields: ['bankCode'],
  },
  { name: 'a bank name as bankCode', ...field('bankCode', 'GTB'), status: 400, code: 'validation' },
  { name: 'a 7-digit bankCode', ...field('bankCode', '1234567'), status: 400, code: 'validation' },
  { name: 'a numeric bankCode', ...field('bankCode', 58), status: 400, code: 'validation' },
  { name: 'an amount hint in words', ...field('amount', 'ten'), status: 400, code: 'validation' },
  { name: 'a negative amount hint', ...field('amount', '-5'), status: 400, code: 'validation' },
  { name: 'an amount hint with 3 decimals', ...field('amount', '1.234'), status: 400, code: 'validation' },
  { name: 'an amount hint as a number', ...field('amount', 1500), status: 400, code: 'validation' },
  { name: 'a currency of 5 letters', ...field('currency', 'NAIRA'), status: 400, code: 'validation' },
  { name: 'a 3-letter country', ...field('country', 'NGA'), status: 400, code: 'validation' },
  { name: 'a paymentReference with spaces', ...field('paymentReference', 'order 42'), status: 400, code: 'validation' },
  {
    name: 'a 129-character paymentReference',
    ...field('paymentReference', 'r'.repeat(129)),
    status: 400,
    code: 'validation',
  },
  {
    name: 'a 3-character Idempotency-Key',
    request: withKey('abc'),
    status: 400,
    code: 'invalid_idempotency_key',
    fields: ['Idempotency-Key'],
  },
  {
    name: 'an Idempotency-Key with a space',
    request: withKey('key with space'),
    status: 400,
    code: 'invalid_idempotency_key',
    fields: ['Idempotency-Key'],
  },
  {
    name: 'a 256-character Idempotency-Key',
    request: withKey('k'.repeat(256)),
    status: 400,
    code: 'invalid_idempotency_key',
    fields: ['Idempotency-Key'],
  },
  {
    name: 'several bad fields at once',
    request: json({ paymentType: 'USSD', fullName: 'A', email: 'nope', mobileNumber: 'x' }),
    status: 400,
    code: 'validation',
    fields: ['fullName', 'email', 'mobileNumber', 'bankCode'],
  },
];

describe('createSessionHandler: bad input', () => {
  it('has at least 30 distinct kinds of bad input', () => {
    assert.ok(BAD_INPUTS.length >= 30);
    assert.equal(new Set(BAD_INPUTS.map((input) => input.name)).size, BAD_INPUTS.length);
  });

  for (const input of BAD_INPUTS) {
    it(`answers ${input.status} ${input.code} to ${input.name}, without calling the gateway`, async () => {
      let resolved = 0;
      const { handler, calls, events } = makeHandler({
        maxBodyBytes: MAX_BODY_BYTES,
        order: () => {
          resolved += 1;
          return ORDER;
        },
      });
      const error = await readError(await handler(input.request()), input.status, input.code);
      if (input.fields) assert.deepEqual(Object.keys(error.fields ?? {}).sort(), [...input.fields].sort());
      for (const message of Object.values(error.fields ?? {})) assert.ok(message.length > 0);
      assert.equal(calls.length, 0, 'no upstream call');
      assert.equal(resolved, 0, 'the order was not resolved');
      assert.deepEqual(events, [
        { type: 'rejected', status: input.status, code: input.code, ...(error.fields ? { fields: error.fields } : {}) },
      ]);
    });
  }

  it('accepts the same request once it is fixed (the table is not failing for another reason)', async () => {
    const { handler, calls } = makeHandler({ maxBodyBytes: MAX_BODY_BYTES });
    const response = await handler(
      post(USSD_REQUEST, { 'idempotency-key': 'a-valid-key-0001', 'content-type': 'application/json; charset=utf-8' }),
    );
    assert.equal(response.status, 200);
    assert.equal(calls.length, 1);
  });

  it('requires an Idempotency-Key by default, naming the header, before resolving anything', async () => {
    let resolved = 0;
    const { handler, calls, events } = makeHandler({
      requireIdempotencyKey: undefined,
      order: () => (resolved++, ORDER),
    });
    const error = await readError(await handler(postWithoutKey(USSD_REQUEST)), 400, 'missing_idempotency_key');
    assert.deepEqual(Object.keys(error.fields ?? {}), ['Idempotency-Key']);
    assert.equal(calls.length + resolved, 0);
    assert.deepEqual(events, [
      { type: 'rejected', status: 400, code: 'missing_idempotency_key', fields: error.fields },
    ]);
    assert.equal((await handler(post(USSD_REQUEST))).status, 200, 'with a key it goes through');
  });

  it('lets a request without an Idempotency-Key through with requireIdempotencyKey: false', async () => {
    const { handler, calls } = makeHandler({ requireIdempotencyKey: false });
    assert.equal((await handler(postWithoutKey(USSD_REQUEST))).status, 200);
    assert.equal((await handler(postWithoutKey(USSD_REQUEST))).status, 200);
    assert.equal(calls.length, 2, 'each such request is a new payment');
  });

  it('refuses to start with a size or time limit that is not a positive finite number', () => {
    for (const name of ['maxBodyBytes', 'timeoutMs', 'attemptTimeoutMs'] as const) {
      for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1000', null]) {
        assert.throws(() => makeHandler({ [name]: bad as never }), TypeError, `${name}: ${String(bad)}`);
        assert.throws(() => makeHandler({ [name]: bad as never }), new RegExp(name));
      }
      assert.doesNotThrow(() => makeHandler({ [name]: 1_000 }));
    }
  });

  it('answers 405 with an Allow header', async () => {
    const { handler } = makeHandler();
    const response = await handler(new Request(SESSION_URL));
    assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
  });
});
