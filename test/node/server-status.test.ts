import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statusResponseSchema, type StatusResponse } from '../../src/contract/schemas.js';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import {
  createSessionHandler,
  createStatusHandler,
  type StatusEvent,
  type StatusLookup,
} from '../../src/server/internal.js';
import {
  ORDER,
  post,
  readError,
  STATUS_SECRET,
  statusBody,
  statusTokenFor,
  TRANSFER_REQUEST,
} from './server-fixtures.js';

const STATUS_URL = 'https://shop.test/api/pay/status';
const PAYMENTS: Record<string, StatusResponse> = {
  'order-1': { status: 'PENDING' },
  'order-2': { status: 'SUCCESS', message: 'Paid, thank you.' },
  'order-3': { status: 'FAILED', message: null },
};
const fromTable: StatusLookup = (reference) => PAYMENTS[reference];

/** A poll as the widget sends it: with the reference's statusToken, unless the query has none to sign. */
async function get(query: string, init: RequestInit = {}): Promise<Request> {
  const reference = new URLSearchParams(query).get('paymentReference');
  const token = reference && !query.includes('statusToken') ? `&statusToken=${await statusTokenFor(reference)}` : '';
  return new Request(`${STATUS_URL}${query}${token}`, init);
}

describe('createStatusHandler', () => {
  for (const [reference, expected] of Object.entries(PAYMENTS)) {
    it(`answers 200 with the status of ${reference}`, async () => {
      const response = await createStatusHandler({ statusSecret: STATUS_SECRET, lookup: fromTable })(
        await get(`?paymentReference=${reference}`),
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = statusResponseSchema.parse(await response.json());
      assert.equal(body.status, expected.status);
      assert.equal(body.message ?? null, expected.message ?? null);
    });
  }

  it('passes the reference and the Request to lookup', async () => {
    const seen: string[] = [];
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: async (reference, { request }) => (seen.push(reference, request.url), PAYMENTS['order-1']),
    });
    // The request's own URL: a token signed again could carry the next second's expiry.
    const request = await get('?paymentReference=order-1');
    await handler(request);
    assert.match(
      request.url,
      /^https:\/\/shop\.test\/api\/pay\/status\?paymentReference=order-1&statusToken=\d+\.[\w-]{43}$/,
    );
    assert.deepEqual(seen, ['order-1', request.url]);
  });

  it('answers 400 validation when paymentReference is missing, empty or malformed', async () => {
    const handler = createStatusHandler({ statusSecret: STATUS_SECRET, lookup: fromTable });
    for (const query of [
      '',
      '?paymentReference=',
      '?paymentReference=a%20b',
      `?paymentReference=${'x'.repeat(129)}`,
      '?ref=order-1',
    ]) {
      const error = await readError(await handler(await get(query)), 400, 'validation');
      assert.ok(error.fields?.paymentReference);
    }
  });

  it('answers 404 not_found for an unknown reference', async () => {
    const handler = createStatusHandler({ statusSecret: STATUS_SECRET, lookup: fromTable });
    await readError(await handler(await get('?paymentReference=order-999')), 404, 'not_found');
    const nullLookup = createStatusHandler({ statusSecret: STATUS_SECRET, lookup: () => null });
    await readError(await nullLookup(await get('?paymentReference=order-1')), 404, 'not_found');
  });

  it('answers 500 internal when lookup throws, rejects or returns nonsense, and reports it', async () => {
    const errors: unknown[] = [];
    const lookups: StatusLookup[] = [
      () => {
        throw new Error('db down');
      },
      () => Promise.reject(new Error('db down')),
      () => ({ status: 'PAID' }) as never,
    ];
    for (const lookup of lookups) {
      const handler = createStatusHandler({
        statusSecret: STATUS_SECRET,
        lookup,
        onError: (error) => void errors.push(error),
      });
      const error = await readError(await handler(await get('?paymentReference=order-1')), 500, 'internal');
      assert.doesNotMatch(error.message, /db down/);
    }
    assert.equal(errors.length, 3);
  });

  it('reports a failing lookup to onEvent as internal-error with the error class only, and still to onError', async () => {
    const events: StatusEvent[] = [];
    const errors: unknown[] = [];
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: () => {
        throw new RangeError('db down at postgres://user:pw@db');
      },
      onEvent: (event) => void events.push(event),
      onError: (error) => void errors.push(error),
    });
    await readError(await handler(await get('?paymentReference=order-1')), 500, 'internal');
    assert.deepEqual(events, [{ type: 'internal-error', where: 'lookup', detail: 'RangeError' }]);
    assert.equal((errors[0] as Error).message, 'db down at postgres://user:pw@db');
  });

  it('answers 405 to POST, HEAD without a body, and applies allowedOrigins', async () => {
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: fromTable,
      allowedOrigins: ['https://shop.example'],
    });
    await readError(
      await handler(await get('?paymentReference=order-1', { method: 'POST' })),
      405,
      'method_not_allowed',
    );
    const head = await handler(await get('?paymentReference=order-1', { method: 'HEAD' }));
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const allowed = await handler(
      await get('?paymentReference=order-1', { headers: { origin: 'https://shop.example' } }),
    );
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://shop.example');
    await readError(
      await handler(await get('?paymentReference=order-1', { headers: { origin: 'https://evil.example' } })),
      403,
      'origin_not_allowed',
    );
  });

  it('accepts every reference the session endpoint accepted, such as INV/2024/0042', async () => {
    const sandbox = createSandboxGateway();
    for (const paymentReference of ['INV/2024/0042', 'shop:order.42_a-b', 'r'.repeat(128)]) {
      const session = createSessionHandler({
        statusSecret: STATUS_SECRET,
        baseUrl: 'https://gateway.test',
        publicKey: SANDBOX_PUBLIC_KEY,
        accessToken: SANDBOX_ACCESS_TOKEN,
        fetch: sandbox.fetch,
        order: () => ({ ...ORDER, paymentReference }),
      });
      const initiated = await session(post(TRANSFER_REQUEST));
      assert.equal(initiated.status, 200, paymentReference);
      const status = createStatusHandler({
        statusSecret: STATUS_SECRET,
        lookup: (reference) => sandbox.lookup(reference),
      });
      const { order } = (await initiated.json()) as { order: { statusToken: string } };
      const query = `?paymentReference=${encodeURIComponent(paymentReference)}&statusToken=${order.statusToken}`;
      const response = await status(await get(query));
      assert.equal(response.status, 200, paymentReference);
      assert.deepEqual(await statusBody(response), { status: 'PENDING' });
    }
  });

  it('answers 504 gateway_timeout when lookup does not answer within timeoutMs, and aborts its signal', async () => {
    const errors: unknown[] = [];
    let signal: AbortSignal | undefined;
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: (_reference, context) => {
        signal = context.signal;
        return new Promise(() => {}); // a hung database
      },
      timeoutMs: 30,
      onError: (error) => void errors.push(error),
    });
    const started = Date.now();
    const error = await readError(await handler(await get('?paymentReference=order-1')), 504, 'gateway_timeout');
    assert.ok(Date.now() - started < 1_000);
    assert.ok(error.message.length > 0);
    assert.equal(signal?.aborted, true);
    assert.equal(errors.length, 1);
    assert.equal((errors[0] as Error).name, 'TimeoutError');
    // A lookup that answers in time is unaffected, and its signal is not aborted.
    const quick = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: async (reference, context) => (context.signal.aborted ? undefined : PAYMENTS[reference]),
      timeoutMs: 1_000,
    });
    assert.equal((await quick(await get('?paymentReference=order-2'))).status, 200);
    assert.throws(
      () => createStatusHandler({ statusSecret: STATUS_SECRET, lookup: fromTable, timeoutMs: 0 }),
      TypeError,
    );
  });
});
