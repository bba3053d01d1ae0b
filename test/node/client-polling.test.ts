/**
 * The status side of the client, without a browser: the polling schedule (about every 2 s, about
 * every 10 s after the first minute, giving up 20 minutes after a transfer's account runs out, and
 * after 50 minutes at least) and `fetchStatus`.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { fetchStatus } from '../../src/element/client.js';
import { nextPollDelay, pollingTime } from '../../src/element/status-poller.js';
import type { Order } from '../../src/contract/schemas.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

describe('status polling schedule', () => {
  it('asks every 2 s during the first minute', () => {
    for (const elapsed of [0, 1, 2 * SECOND, 59 * SECOND, MINUTE - 1])
      assert.equal(nextPollDelay(elapsed), 2_000, String(elapsed));
  });

  it('slows to every 10 s after the first minute', () => {
    for (const elapsed of [MINUTE, 5 * MINUTE, 30 * MINUTE, 50 * MINUTE - 1])
      assert.equal(nextPollDelay(elapsed), 10_000, String(elapsed));
  });

  const order = (fields: Partial<Order> = {}): Order => ({
    paymentReference: 'cart-42',
    amount: '5000',
    currency: 'NGN',
    ...fields,
  });

  it('gives up after 50 minutes for a USSD payment, or an account valid 30 minutes or less', () => {
    assert.equal(pollingTime(undefined), 50 * MINUTE, 'no order');
    assert.equal(pollingTime(order()), 50 * MINUTE, 'no expiry');
    assert.equal(pollingTime(order({ expiresAt: '2030-01-01T00:30:00Z', expiresInMs: 30 * MINUTE })), 50 * MINUTE);
    assert.equal(pollingTime(order({ expiresAt: '2030-01-01T00:05:00Z', expiresInMs: 5 * MINUTE })), 50 * MINUTE);
    assert.equal(
      pollingTime(order({ expiresAt: '2030-01-01T00:05:00Z', expiresInMs: 0 })),
      50 * MINUTE,
      'run out already (a resumed attempt)',
    );
  });

  it('follows a longer account: until 20 minutes after it runs out', () => {
    assert.equal(pollingTime(order({ expiresAt: '2030-01-01T02:00:00Z', expiresInMs: 2 * 60 * MINUTE })), 140 * MINUTE);
    // A back end that sends only expiresAt: read against the phone's clock, as the countdown does.
    const inAnHour = new Date(Date.now() + 60 * MINUTE).toISOString();
    const time = pollingTime(order({ expiresAt: inAnHour }));
    assert.ok(time > 79 * MINUTE && time <= 80 * MINUTE, String(time));
  });
});

describe('fetchStatus', () => {
  const realFetch = globalThis.fetch;
  const hadDocument = 'document' in globalThis;
  let requested: { url: string; init: RequestInit }[] = [];

  before(() => {
    // fetchStatus resolves status-url against the page; give it one.
    if (!hadDocument) Object.assign(globalThis, { document: { baseURI: 'https://shop.example/checkout/' } });
  });
  after(() => {
    if (!hadDocument) delete (globalThis as { document?: unknown }).document;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    requested = [];
  });

  function answer(response: () => Response): void {
    globalThis.fetch = (async (input: unknown, init: RequestInit = {}) => {
      requested.push({ url: String(input), init });
      return response();
    }) as typeof fetch;
  }

  it('GETs status-url with the payment reference, resolved against the page', async () => {
    answer(() => Response.json({ status: 'SUCCESS', message: 'Paid', extra: true }));
    const lookup = { signal: new AbortController().signal, timeoutMs: 1_000 };
    assert.deepEqual(await fetchStatus('../pay/status?shop=1', { paymentReference: 'ORD 1/2' }, lookup), {
      status: 'SUCCESS',
      message: 'Paid',
    });
    assert.equal(requested.length, 1);
    const url = new URL(requested[0]!.url);
    assert.equal(url.origin + url.pathname, 'https://shop.example/pay/status');
    assert.equal(url.searchParams.get('shop'), '1');
    assert.equal(url.searchParams.get('paymentReference'), 'ORD 1/2');
    assert.equal(url.searchParams.has('statusToken'), false, 'no token, no parameter');
    assert.equal(requested[0]!.init.method ?? 'GET', 'GET');
  });

  it("passes on the server's now, when the answer says it (issue 26: a resumed countdown reads its expiry against it)", async () => {
    answer(() => Response.json({ status: 'PENDING', now: '2025-03-01T10:12:30.000Z' }));
    const lookup = { signal: new AbortController().signal, timeoutMs: 1_000 };
    assert.deepEqual(await fetchStatus('/pay/status', { paymentReference: 'ORD-1' }, lookup), {
      status: 'PENDING',
      message: undefined,
      now: '2025-03-01T10:12:30.000Z',
    });
  });

  it('reads a reason it knows with what was received, keeps only well-formed figures, and ignores a reason it does not know', async () => {
    const lookup = { signal: new AbortController().signal, timeoutMs: 1_000 };
    const read = async (body: Record<string, unknown>) => {
      answer(() => Response.json(body));
      return fetchStatus('/pay/status', { paymentReference: 'ORD-1' }, lookup);
    };
    assert.deepEqual(
      await read({ status: 'PENDING', reason: 'amount-mismatch', amountReceived: '9500', currencyReceived: 'USD' }),
      {
        status: 'PENDING',
        message: undefined,
        review: { reason: 'amount-mismatch', amountReceived: '9500', currencyReceived: 'USD' },
      },
    );
    assert.deepEqual(
      await read({
        status: 'PENDING',
        reason: 'amount-mismatch',
        amountReceived: '9,500 naira',
        currencyReceived: 'USD',
      }),
      {
        status: 'PENDING',
        message: undefined,
        review: { reason: 'amount-mismatch' },
      },
    );
    assert.deepEqual(await read({ status: 'SUCCESS', reason: 'after-expiry' }), {
      status: 'SUCCESS',
      message: undefined,
      review: { reason: 'after-expiry' },
    });
    assert.deepEqual(await read({ status: 'PENDING', reason: 'toString' }), { status: 'PENDING', message: undefined });
  });

  it("sends the order's status token beside the reference, encoded", async () => {
    answer(() => Response.json({ status: 'PENDING' }));
    const lookup = { signal: new AbortController().signal, timeoutMs: 1_000 };
    await fetchStatus('/pay/status', { paymentReference: 'ORD-1', statusToken: 'v1.abc+/=&x' }, lookup);
    const url = new URL(requested[0]!.url);
    assert.equal(url.searchParams.get('paymentReference'), 'ORD-1');
    assert.equal(url.searchParams.get('statusToken'), 'v1.abc+/=&x');
  });

  it('cancels the look-up when the caller aborts (a reset, the element leaving the page)', async () => {
    const hanging = (_input: unknown, init: RequestInit = {}) =>
      new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    globalThis.fetch = hanging as typeof fetch;
    const caller = new AbortController();
    const lookup = fetchStatus(
      '/pay/status',
      { paymentReference: 'ORD-1' },
      { signal: caller.signal, timeoutMs: 60_000 },
    );
    caller.abort();
    await assert.rejects(lookup);
  });

  it('abandons a look-up that hangs past its time-out, so one slow answer cannot stall polling', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let lookupSignal: AbortSignal | undefined;
    globalThis.fetch = ((_input: unknown, init: RequestInit = {}) => {
      lookupSignal = init.signal!;
      return new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    }) as typeof fetch;
    const lookup = fetchStatus(
      '/pay/status',
      { paymentReference: 'ORD-1' },
      { signal: new AbortController().signal, timeoutMs: 15_000 },
    );
    t.mock.timers.tick(14_999);
    assert.equal(lookupSignal?.aborted, false, 'still waiting just before the time-out');
    t.mock.timers.tick(1);
    assert.equal(lookupSignal?.aborted, true);
    await assert.rejects(lookup);
  });

  it('throws on an HTTP error, so the poller asks again', async () => {
    answer(() => new Response('busy', { status: 503 }));
    await assert.rejects(
      fetchStatus(
        '/pay/status',
        { paymentReference: 'ORD-1' },
        { signal: new AbortController().signal, timeoutMs: 1_000 },
      ),
    );
  });

  it('throws on an answer that is not a status', async () => {
    answer(() => Response.json({ status: 'DONE' }));
    await assert.rejects(
      fetchStatus(
        '/pay/status',
        { paymentReference: 'ORD-1' },
        { signal: new AbortController().signal, timeoutMs: 1_000 },
      ),
    );
    answer(() => new Response('<html></html>'));
    await assert.rejects(
      fetchStatus(
        '/pay/status',
        { paymentReference: 'ORD-1' },
        { signal: new AbortController().signal, timeoutMs: 1_000 },
      ),
    );
  });
});
