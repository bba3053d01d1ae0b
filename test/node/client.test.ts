/**
 * The session client, without a DOM: what `postSession` sends, how every kind of answer becomes
 * one typed failure, and how `initiatePayment` reads envelopes, times out and aborts.
 * `fetch` is Node's own, replaced per test by a recorder.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { initiatePayment, PayFailureError, postSession, type Initiate } from '../../src/element/client.js';
import type { PayFailure } from '../../src/element/flow.js';
import { newIdempotencyKey } from '../../src/element/initiation.js';
import { orderSchema, type SessionRequest } from '../../src/contract/schemas.js';

const URL_ = 'https://shop.example/pay/session';
const ussdRequest: SessionRequest = {
  paymentType: 'USSD',
  fullName: 'Ada Obi',
  email: 'ada@example.com',
  mobileNumber: '08012345678',
  bankCode: '058',
  amount: '5000',
};
const transferRequest: SessionRequest = {
  paymentType: 'TRANSFER',
  fullName: 'Ada Obi',
  email: 'ada@example.com',
  mobileNumber: '08012345678',
};
const ussdEnvelope = {
  status: 'SUCCESS',
  data: {
    code: null,
    message: null,
    payments: {
      paymentReference: 'ORD-1001',
      linkingReference: 'LNK-1',
      providerreference: 'PRV-1',
      ussdDailCode: '*737*000*4412#',
    },
  },
};

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

type Recorded = { input: unknown; init: RequestInit };
function stubFetch(answer: () => Response | Promise<Response>): Recorded[] {
  const calls: Recorded[] = [];
  globalThis.fetch = (async (input: unknown, init: RequestInit = {}) => {
    calls.push({ input, init });
    return answer();
  }) as typeof fetch;
  return calls;
}

const options = () => ({ idempotencyKey: 'k'.repeat(32), signal: new AbortController().signal });

/** The failure `postSession` rejects with for this answer. */
async function failureOf(response: Response): Promise<PayFailure> {
  stubFetch(() => response);
  try {
    await postSession(URL_, transferRequest, options());
  } catch (error) {
    assert.ok(error instanceof PayFailureError, `a PayFailureError, not ${String(error)}`);
    return error.failure;
  }
  assert.fail('postSession resolved');
}

const jsonResponse = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('client', () => {
  describe('postSession', () => {
    it('posts the request as JSON with the idempotency key', async () => {
      const calls = stubFetch(() => jsonResponse(ussdEnvelope, 200));
      const controller = new AbortController();
      const body = await postSession(URL_, ussdRequest, { idempotencyKey: 'abc123', signal: controller.signal });
      assert.deepEqual(body, ussdEnvelope);
      assert.equal(calls.length, 1);
      const { input, init } = calls[0]!;
      assert.equal(input, URL_);
      assert.equal(init.method, 'POST');
      const headers = new Headers(init.headers);
      assert.equal(headers.get('content-type'), 'application/json');
      assert.equal(headers.get('idempotency-key'), 'abc123');
      assert.equal(headers.get('accept'), 'application/json');
      assert.deepEqual(JSON.parse(init.body as string), ussdRequest);
      assert.equal(init.signal, controller.signal);
      assert.equal(init.credentials, 'same-origin');
    });

    it('resolves to undefined for a 200 whose body is not JSON', async () => {
      stubFetch(() => new Response('<html>ok</html>', { status: 200 }));
      assert.equal(await postSession(URL_, transferRequest, options()), undefined);
    });

    const cases: [string, () => Response, PayFailure][] = [
      [
        'a 503 with the contract’s body → http, retryable, its message',
        () => jsonResponse({ status: 'ERROR', error: { code: 'upstream', message: 'Try later' } }, 503),
        { code: 'http', message: 'Try later', retryable: true },
      ],
      [
        'a 400 with the contract’s body → http, not retryable, the server’s words for a code the widget does not know',
        () => jsonResponse({ status: 'ERROR', error: { code: 'bad_request', message: 'No USD' } }, 400),
        { code: 'http', message: 'No USD', retryable: false },
      ],
      [
        'a 408 → retryable',
        () => jsonResponse({ status: 'ERROR', error: { code: 'slow', message: 'Too slow' } }, 408),
        { code: 'http', message: 'Too slow', retryable: true },
      ],
      [
        'a 429 → retryable',
        () => jsonResponse({ status: 'ERROR', error: { code: 'rate_limited', message: 'Slow down' } }, 429),
        { code: 'http', message: 'Slow down', retryable: true, says: 'rateLimited' },
      ],
      [
        'an error code starting with "gateway" → gateway',
        () => jsonResponse({ status: 'ERROR', error: { code: 'gateway_timeout', message: 'No answer' } }, 504),
        { code: 'gateway', message: 'No answer', retryable: true, says: 'error-timeout' },
      ],
      [
        'a 422 with fields → validation with the fields',
        () =>
          jsonResponse(
            { status: 'ERROR', error: { code: 'invalid_request', message: 'Bad', fields: { email: 'Blocked' } } },
            422,
          ),
        { code: 'validation', message: 'Bad', retryable: false, fields: { email: 'Blocked' } },
      ],
      [
        'the error code "validation" without fields → validation',
        () => jsonResponse({ status: 'ERROR', error: { code: 'validation', message: 'Check your details' } }, 400),
        {
          code: 'validation',
          message: 'Check your details',
          retryable: false,
          fields: undefined,
          says: 'error-validation',
        },
      ],
      [
        'an HTML error page → http, no message',
        () =>
          new Response('<html><h1>502 Bad Gateway</h1></html>', {
            status: 502,
            headers: { 'Content-Type': 'text/html' },
          }),
        { code: 'http', message: undefined, retryable: true },
      ],
      [
        'an empty 500 → http, no message',
        () => new Response(null, { status: 500 }),
        { code: 'http', message: undefined, retryable: true },
      ],
      [
        'an unreadable body → http, no message',
        () =>
          new Response(
            new ReadableStream({
              start(controller) {
                controller.error(new Error('connection reset'));
              },
            }),
            { status: 500 },
          ),
        { code: 'http', message: undefined, retryable: true },
      ],
      [
        'the gateway’s own error envelope passed through → http with the gateway’s message',
        () => jsonResponse({ status: 'FAILED', data: { code: 'E14', message: 'Unknown bank code' } }, 400),
        { code: 'http', message: 'Unknown bank code', retryable: false },
      ],
    ];
    for (const [title, response, expected] of cases) {
      it(`maps ${title}`, async () => {
        assert.deepEqual(await failureOf(response()), expected);
      });
    }
  });

  describe('initiatePayment', () => {
    const run = (
      initiate: Initiate,
      request: SessionRequest = ussdRequest,
      timeoutMs = 1_000,
      signal = new AbortController().signal,
    ) => initiatePayment(initiate, request, { idempotencyKey: 'key-1', signal, timeoutMs });

    async function failure(promise: Promise<unknown>): Promise<PayFailure> {
      try {
        await promise;
      } catch (error) {
        assert.ok(error instanceof PayFailureError);
        return error.failure;
      }
      assert.fail('resolved');
    }

    it('passes the request and the key to initiate, and reads the instructions', async () => {
      const seen: unknown[] = [];
      const instructions = await run(async (request, { idempotencyKey, signal }) => {
        seen.push(request, idempotencyKey, signal instanceof AbortSignal);
        return ussdEnvelope;
      });
      assert.deepEqual(seen, [ussdRequest, 'key-1', true]);
      assert.deepEqual(instructions.order, undefined, 'an endpoint that sends no order: no amount to show');
      assert.deepEqual(instructions.instructions, {
        paymentType: 'USSD',
        paymentReference: 'ORD-1001',
        ussdDialCode: '*737*000*4412#',
        linkingReference: 'LNK-1',
        providerReference: 'PRV-1',
      });
    });

    describe("the server's order", () => {
      const order = { paymentReference: 'ORD-1001', amount: '7250', currency: 'NGN', statusToken: 'st.abc' };
      const withOrder = (value: unknown) => async () => ({ ...ussdEnvelope, order: value });

      it('reads what the server charges, with its status token, ignoring extra members', async () => {
        const result = await run(withOrder({ ...order, note: 'ignored' }));
        assert.deepEqual(result.order, order);
        assert.equal(result.instructions.paymentReference, 'ORD-1001');
      });

      it('keeps an order without a status token, and upper-cases the currency', async () => {
        const { statusToken: _, ...untokened } = order;
        assert.deepEqual((await run(withOrder({ ...untokened, currency: 'ngn' }))).order, untokened);
        assert.deepEqual(
          (await run(withOrder({ ...untokened, statusToken: '' }))).order,
          untokened,
          'an empty token is no token',
        );
      });

      const malformed: [string, unknown][] = [
        ['null', null],
        ['a string', '7250 NGN'],
        ['an array', [order]],
        ['a number amount', { ...order, amount: 7250 }],
        ['an amount with three decimals', { ...order, amount: '72.505' }],
        ['a zero amount', { ...order, amount: '0' }],
        ['a negative amount', { ...order, amount: '-7250' }],
        ['a currency that is not a code', { ...order, currency: 'Naira' }],
        ['no currency', { paymentReference: order.paymentReference, amount: order.amount }],
        ['no reference', { amount: order.amount, currency: order.currency }],
      ];
      for (const [title, value] of malformed) {
        it(`treats ${title} as no order: no amount rather than a guess`, async () => {
          const result = await run(withOrder(value));
          assert.equal(result.order, undefined);
          assert.equal(result.instructions.paymentReference, 'ORD-1001', 'the instructions still stand');
        });
      }

      it("trusts exactly the orders the server's orderSchema accepts", async () => {
        const { statusToken: _, ...untokened } = order;
        for (const value of [order, untokened, ...malformed.map(([, body]) => body)]) {
          const trusted = (await run(withOrder(value))).order !== undefined;
          assert.equal(trusted, orderSchema.safeParse(value).success, JSON.stringify(value));
        }
      });

      it('fails an order for another payment than the instructions as invalid-response, not retryable', async () => {
        assert.deepEqual(await failure(run(withOrder({ ...order, paymentReference: 'ORD-9999' }))), {
          code: 'invalid-response',
          message: undefined,
          retryable: false,
        });
      });
    });

    it('fails a body that is not an envelope as invalid-response, retryable', async () => {
      assert.deepEqual(await failure(run(async () => ({ ok: true }))), {
        code: 'invalid-response',
        message: undefined,
        retryable: true,
      });
      assert.deepEqual(await failure(run(async () => undefined)), {
        code: 'invalid-response',
        message: undefined,
        retryable: true,
      });
    });

    it('fails a non-SUCCESS envelope as gateway, not retryable, with its message', async () => {
      const body = { status: 'FAILED', data: { code: '51', message: 'Limit exceeded', payments: null } };
      assert.deepEqual(await failure(run(async () => body)), {
        code: 'gateway',
        message: 'Limit exceeded',
        retryable: false,
      });
    });

    it('fails a success envelope lacking its type’s fields as gateway, retryable, with its message', async () => {
      const body = {
        status: 'SUCCESS',
        data: { code: '00', message: 'Not opened', payments: { paymentReference: 'ORD-2' } },
      };
      assert.deepEqual(await failure(run(async () => body, transferRequest)), {
        code: 'gateway',
        message: 'Not opened',
        retryable: true,
      });
    });

    it('turns a thrown error into network, retryable', async () => {
      assert.deepEqual(await failure(run(() => Promise.reject(new TypeError('fetch failed')))), {
        code: 'network',
        message: undefined,
        retryable: true,
      });
    });

    it('passes a PayFailureError from the transport through unchanged', async () => {
      const own: PayFailure = { code: 'http', message: 'Nope', retryable: false };
      assert.deepEqual(await failure(run(() => Promise.reject(new PayFailureError(own)))), own);
    });

    it('times out after timeoutMs, aborting the transport’s signal, even if the transport ignores it', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout'] });
      let transportSignal: AbortSignal | undefined;
      const pending = failure(
        run(
          (_, { signal }) => {
            transportSignal = signal;
            return new Promise(() => {});
          },
          ussdRequest,
          30_000,
        ),
      );
      t.mock.timers.tick(29_999);
      assert.equal(transportSignal?.aborted, false, 'still waiting just before the time-out');
      t.mock.timers.tick(1);
      assert.deepEqual(await pending, { code: 'timeout', message: undefined, retryable: true });
      assert.equal(transportSignal?.aborted, true);
    });

    it('stops when the caller aborts, aborting the transport’s signal', async () => {
      const caller = new AbortController();
      let transportSignal: AbortSignal | undefined;
      const pending = run(
        (_, { signal }) => {
          transportSignal = signal;
          return new Promise(() => {});
        },
        ussdRequest,
        10_000,
        caller.signal,
      );
      caller.abort();
      assert.deepEqual(await failure(pending), { code: 'network', message: undefined, retryable: true });
      assert.equal(transportSignal?.aborted, true);
    });

    it('works through postSession end to end', async () => {
      const calls = stubFetch(() => jsonResponse(ussdEnvelope, 200));
      const { instructions } = await run((request, opts) => postSession(URL_, request, opts));
      assert.equal(instructions.paymentReference, 'ORD-1001');
      assert.equal(new Headers(calls[0]!.init.headers).get('idempotency-key'), 'key-1');
    });
  });

  it('makes idempotency keys of 128 random bits in hex', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    assert.equal(keys.size, 50);
    for (const key of keys) assert.match(key, /^[0-9a-f]{32}$/);
  });
});
