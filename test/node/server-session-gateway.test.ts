/**
 * The session handler on a `createGateway` object: a token made from the dashboard's keys, a token
 * that cannot be had, and the duplicate-reference answers of spec/gateway-companion.md §4.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import {
  createGateway,
  createMemoryIdempotencyStore,
  createMemoryPaymentStore,
  createSessionHandler,
  type Payment,
  type SessionEvent,
} from '../../src/server/internal.js';
import {
  GATEWAY_URL,
  ORDER,
  post,
  PUBLIC_KEY,
  readError,
  recordingFetch,
  type Responder,
  STATUS_SECRET,
  TOKEN,
  TRANSFER_REQUEST,
  USSD_REQUEST,
} from './server-fixtures.js';

function onSandbox(secretKey = SANDBOX_SECRET_KEY) {
  const sandbox = createSandboxGateway();
  const paths: string[] = [];
  const gateway = createGateway({
    baseUrl: 'https://sandbox.test',
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey,
    fetch: (input, init) => {
      paths.push(new URL(String(input)).pathname);
      return sandbox.fetch(input, init);
    },
  });
  const events: SessionEvent[] = [];
  const payments = createMemoryPaymentStore();
  const idempotency = createMemoryIdempotencyStore();
  const handler = createSessionHandler({
    gateway,
    payments,
    idempotency,
    statusSecret: STATUS_SECRET,
    order: () => ({ ...ORDER, paymentReference: `gw-${crypto.randomUUID()}` }),
    onEvent: (event) => void events.push(event),
  });
  return { handler, paths, events, payments, idempotency };
}

describe('createSessionHandler({ gateway })', () => {
  it('pays through a gateway whose token comes from the secret key, asked for once, and records the payment', async () => {
    const { handler, paths, events, payments } = onSandbox();
    const answers = await Promise.all(Array.from({ length: 5 }, () => handler(post(USSD_REQUEST))));
    const references: string[] = [];
    for (const response of answers) {
      assert.equal(response.status, 200);
      const body = (await response.json()) as {
        order: { paymentReference: string; amount: string; statusToken?: string };
      };
      assert.equal(body.order.amount, ORDER.amount);
      assert.ok(body.order.statusToken);
      references.push(body.order.paymentReference);
    }
    assert.equal(paths.filter((path) => path.endsWith('/encrypt/keys')).length, 1, 'one token for five payments');
    for (const reference of references) assert.equal((await payments.get(reference))?.state, 'PENDING');
    assert.ok(!JSON.stringify(events).includes(SANDBOX_SECRET_KEY));
  });

  it('answers 500 config when the keys are refused, sends no initiation and stores nothing for the key', async () => {
    const { handler, paths, events, idempotency } = onSandbox('sk_wrong_secret_0000');
    const key = 'attempt-wrong-keys-1';
    const error = await readError(await handler(post(TRANSFER_REQUEST, { 'idempotency-key': key })), 500, 'config');
    assert.doesNotMatch(error.message, /sk_wrong|encrypt|HTTP/);
    assert.deepEqual(paths, ['/api/v2/encrypt/keys']);
    assert.equal(await idempotency.get(key), undefined, 'the retry asks afresh');
    assert.deepEqual(
      events.filter((event) => event.type === 'internal-error'),
      [{ type: 'internal-error', where: 'token', detail: 'no token: refused (HTTP 400)' }],
    );
    assert.ok(!JSON.stringify(events).includes('sk_wrong_secret_0000'));
    // The same key again is answered alike without asking again: keys refused are held back for
    // refusedBackoffMs (issue 24, defect 10), and the refusal is not reported twice.
    await readError(await handler(post(TRANSFER_REQUEST, { 'idempotency-key': key })), 500, 'config');
    assert.deepEqual(paths, ['/api/v2/encrypt/keys']);
    assert.equal(events.filter((event) => event.type === 'internal-error').length, 1);
  });

  it('answers 500 internal for an accessToken function that throws, and 502/504 when the token endpoint cannot be reached', async () => {
    const failing = createSessionHandler({
      gateway: createGateway({
        baseUrl: GATEWAY_URL,
        publicKey: PUBLIC_KEY,
        accessToken: () => Promise.reject(new Error(`no ${TOKEN}`)),
      }),
      order: () => ORDER,
    });
    const error = await readError(await failing(post(TRANSFER_REQUEST)), 500, 'internal');
    assert.ok(!error.message.includes(TOKEN));
    const unreachable = createSessionHandler({
      gateway: createGateway({
        baseUrl: GATEWAY_URL,
        publicKey: PUBLIC_KEY,
        secretKey: 'sk_test',
        fetch: () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })),
      }),
      order: () => ORDER,
    });
    await readError(await unreachable(post(TRANSFER_REQUEST)), 502, 'gateway_unreachable');
  });

  it('refuses options that give both a gateway and its parts, or neither, with a TypeError', () => {
    const gateway = createGateway({ baseUrl: GATEWAY_URL, publicKey: PUBLIC_KEY, accessToken: TOKEN });
    assert.throws(
      () => createSessionHandler({ gateway, baseUrl: GATEWAY_URL, order: () => ORDER }),
      /either gateway or baseUrl/,
    );
    assert.throws(
      () => createSessionHandler({ order: () => ORDER }),
      /missing option\(s\) baseUrl, publicKey, accessToken/,
    );
    assert.throws(() => createSessionHandler({ gateway: {} as never, order: () => ORDER }), /createGateway/);
  });
});

/** Each variant of §4, as the gateway sends it. */
const DUPLICATES: Record<string, Responder> = {
  '200 + S18': () =>
    Response.json({
      status: 'SUCCESS',
      data: { code: 'S18', payments: {}, message: 'Transaction reference must be unique' },
    }),
  '200 + S12 "must be unique"': () =>
    Response.json({
      status: 'SUCCESS',
      data: { code: 'S12', payments: {}, message: 'Invalid request. Transaction reference must be unique' },
    }),
  '200 + S14': () =>
    Response.json({ status: 'SUCCESS', data: { code: 'S14', payments: {}, message: 'Duplicate reference' } }),
  'HTTP 500 "Transaction with reference exists"': () =>
    Response.json({ message: 'Transaction with reference exists', error: 'PROCESSING' }, { status: 500 }),
  'HTTP 400 ERROR + S12 "Duplicate transaction reference"': () =>
    Response.json(
      { status: 'ERROR', data: { code: 'S12', message: 'Duplicate transaction reference' } },
      { status: 400 },
    ),
};

function onRecordingGateway(respond: Responder) {
  const upstream = recordingFetch(respond);
  const payments = createMemoryPaymentStore();
  const events: SessionEvent[] = [];
  const handler = createSessionHandler({
    gateway: createGateway({ baseUrl: GATEWAY_URL, publicKey: PUBLIC_KEY, accessToken: TOKEN, fetch: upstream.fetch }),
    payments,
    order: () => ORDER,
    onEvent: (event) => void events.push(event),
  });
  return { handler, calls: upstream.calls, payments, events };
}

const EARLIER: Payment = {
  paymentReference: ORDER.paymentReference,
  paymentType: 'TRANSFER',
  amount: ORDER.amount,
  currency: ORDER.currency,
  state: 'PENDING',
  version: 1,
  createdAt: 1,
  updatedAt: 1,
};

describe('createSessionHandler: a duplicate paymentReference (companion §4)', () => {
  for (const [name, respond] of Object.entries(DUPLICATES)) {
    it(`${name}: answered 422 duplicate_reference, replayed without asking again, the ledger entry left to the query`, async () => {
      const { handler, calls, payments, events } = onRecordingGateway(respond);
      const key = { 'idempotency-key': `dup-${crypto.randomUUID()}` };
      await readError(await handler(post(TRANSFER_REQUEST, key)), 422, 'duplicate_reference');
      const again = await handler(post(TRANSFER_REQUEST, key));
      await readError(again.clone(), 422, 'duplicate_reference');
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(calls.length, 1, 'not retried with the same reference');
      // A payment with this reference exists at the gateway: recorded PENDING, never settled here.
      const entry = await payments.get(ORDER.paymentReference);
      assert.equal(entry?.state, 'PENDING');
      assert.equal(entry?.amount, ORDER.amount);
      assert.ok(events.some((event) => event.type === 'gateway' && event.outcome === 'duplicate-reference'));
      assert.ok(!events.some((event) => event.type === 'initiated'), 'not reported as a payment started now');
    });
  }

  it('leaves an entry the ledger already has exactly as it was', async () => {
    const { handler, payments } = onRecordingGateway(DUPLICATES['200 + S18']!);
    await payments.insert(EARLIER);
    await readError(await handler(post(TRANSFER_REQUEST)), 422, 'duplicate_reference');
    assert.deepEqual(await payments.get(ORDER.paymentReference), EARLIER);
  });

  it('does not mistake an S12 failure, a generic 500 or a missing parameter for a duplicate', async () => {
    const declined = onRecordingGateway(() =>
      Response.json({ status: 'SUCCESS', data: { code: 'S12', payments: {}, message: 'Transaction Failed' } }),
    );
    await readError(await declined.handler(post(TRANSFER_REQUEST)), 502, 'invalid_gateway_response');
    const fault = onRecordingGateway(() =>
      Response.json({ message: 'Internal Server Error', error: 'PROCESSING' }, { status: 500 }),
    );
    await readError(await fault.handler(post(TRANSFER_REQUEST)), 502, 'gateway_error');
    const invalid = onRecordingGateway(() =>
      Response.json(
        { status: 'ERROR', data: { code: 'S12', message: 'Invalid/Missing parameters = amount' } },
        { status: 400 },
      ),
    );
    await readError(await invalid.handler(post(TRANSFER_REQUEST)), 502, 'gateway_error');
    // Issue 15 item 1: each is in the ledger from before the gateway was asked, none as a duplicate's
    // "started": an unreadable answer or a 500 may hide a payment (unknown), a 400 refused it.
    const initiations = [];
    for (const { payments } of [declined, fault, invalid])
      initiations.push((await payments.get(ORDER.paymentReference))?.initiation);
    assert.deepEqual(initiations, ['unknown', 'unknown', 'refused']);
  });
});
