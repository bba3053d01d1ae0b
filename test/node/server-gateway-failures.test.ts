import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import {
  answerSuccess,
  delay,
  makeHandler,
  PATIENT,
  post,
  readError,
  type Responder,
  TRANSFER_REQUEST,
  transferEnvelope,
  USSD_REQUEST,
  ussdEnvelope,
} from './server-fixtures.js';

type Failure = {
  name: string;
  respond: Responder;
  request?: Record<string, unknown>;
  status: number;
  code: string;
  /** The message the customer sees: always the handler's own words. */
  message: RegExp;
  /** The gateway's own words: for `onEvent` only, never the customer. */
  said?: string;
  outcome: string;
};

const html = (status: number) => () =>
  new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
    status,
    headers: { 'content-type': 'text/html' },
  });

const withoutField = (field: string) => () => {
  const envelope = ussdEnvelope('order-42');
  delete (envelope.data.payments as Record<string, unknown>)[field];
  return Response.json(envelope);
};

const FAILURES: Failure[] = [
  {
    name: 'HTTP 500 with a JSON envelope',
    respond: () =>
      Response.json({ status: 'ERROR', data: { code: '96', message: 'System malfunction' } }, { status: 500 }),
    status: 502,
    code: 'gateway_error',
    message: /having trouble/,
    said: 'System malfunction',
    outcome: 'http-error',
  },
  {
    name: 'HTTP 400 with { message }',
    respond: () => Response.json({ message: 'Invalid currency' }, { status: 400 }),
    status: 502,
    code: 'gateway_error',
    message: /could not be started with these details/,
    said: 'Invalid currency',
    outcome: 'http-error',
  },
  {
    name: 'HTTP 422 with { error: { message } }',
    respond: () => Response.json({ error: { message: 'Amount too small' } }, { status: 422 }),
    status: 502,
    code: 'gateway_error',
    message: /could not be started with these details/,
    said: 'Amount too small',
    outcome: 'http-error',
  },
  {
    name: 'HTTP 401 with { error: string }',
    respond: () => Response.json({ error: 'Unauthorized' }, { status: 401 }),
    status: 502,
    code: 'gateway_error',
    message: /unavailable right now/,
    outcome: 'http-error',
  },
  {
    name: 'HTTP 503 without a body',
    respond: () => new Response(null, { status: 503 }),
    status: 502,
    code: 'gateway_error',
    message: /having trouble/,
    outcome: 'http-error',
  },
  {
    name: 'HTTP 502 with a proxy HTML page',
    respond: html(502),
    status: 502,
    code: 'gateway_error',
    message: /having trouble/,
    outcome: 'http-error',
  },
  {
    name: 'HTTP 200 with a truncated JSON body',
    respond: () =>
      new Response('{"status":"SUCCESS","data":{"pay', { headers: { 'content-type': 'application/json' } }),
    status: 502,
    code: 'invalid_gateway_response',
    message: /could not be read/,
    outcome: 'unreadable',
  },
  {
    name: 'HTTP 200 with an HTML body',
    respond: html(200),
    status: 502,
    code: 'invalid_gateway_response',
    message: /could not be read/,
    outcome: 'unreadable',
  },
  {
    name: 'HTTP 200 with JSON that is not an envelope',
    respond: () => Response.json([1, 2, 3]),
    status: 502,
    code: 'invalid_gateway_response',
    message: /could not be read/,
    outcome: 'unreadable',
  },
  {
    name: 'a SUCCESS envelope without ussdDailCode',
    respond: withoutField('ussdDailCode'),
    status: 502,
    code: 'invalid_gateway_response',
    message: /lacked the payment details/,
    outcome: 'missing-fields',
  },
  {
    name: 'a SUCCESS envelope without providerreference',
    respond: withoutField('providerreference'),
    status: 502,
    code: 'invalid_gateway_response',
    message: /lacked the payment details/,
    outcome: 'missing-fields',
  },
  {
    name: 'a SUCCESS envelope with a malformed dial code',
    respond: () => {
      const envelope = ussdEnvelope('order-42');
      envelope.data.payments.ussdDailCode = 'dial 737';
      return Response.json(envelope);
    },
    status: 502,
    code: 'invalid_gateway_response',
    message: /lacked the payment details/,
    outcome: 'missing-fields',
  },
  {
    name: 'a SUCCESS envelope without payments, with a message',
    respond: () =>
      Response.json({ status: 'SUCCESS', data: { code: '00', message: 'Wallet pending', payments: null } }),
    request: TRANSFER_REQUEST,
    status: 502,
    code: 'invalid_gateway_response',
    message: /lacked the payment details/,
    said: 'Wallet pending',
    outcome: 'missing-fields',
  },
  {
    name: 'a USSD envelope for a TRANSFER request',
    respond: () => Response.json(ussdEnvelope('order-42')),
    request: TRANSFER_REQUEST,
    status: 502,
    code: 'invalid_gateway_response',
    message: /lacked the payment details/,
    outcome: 'missing-fields',
  },
  {
    name: 'HTTP 200 with status FAILED',
    respond: () =>
      Response.json({ status: 'FAILED', data: { code: '51', message: 'Insufficient funds', payments: null } }),
    status: 402,
    code: 'payment_declined',
    message: /declined/,
    said: 'Insufficient funds',
    outcome: 'declined',
  },
  {
    name: 'HTTP 200 with status declined in lower case',
    respond: () => Response.json({ status: 'declined', data: { message: 'Card blocked' } }),
    status: 402,
    code: 'payment_declined',
    message: /declined/,
    said: 'Card blocked',
    outcome: 'declined',
  },
  {
    name: 'HTTP 200 with status PENDING and no message',
    respond: () => Response.json({ status: 'PENDING', data: null }),
    status: 502,
    code: 'gateway_error',
    message: /did not confirm/,
    outcome: 'unconfirmed',
  },
  {
    name: 'HTTP 402 without a JSON body',
    respond: () => new Response('Payment Required', { status: 402 }),
    status: 402,
    code: 'payment_declined',
    message: /declined/,
    outcome: 'declined',
  },
  {
    name: 'HTTP 307 redirect to another origin',
    respond: () => new Response(null, { status: 307, headers: { location: 'https://elsewhere.test/steal' } }),
    status: 502,
    code: 'gateway_error',
    message: /having trouble/,
    outcome: 'http-error',
  },
  {
    name: 'HTTP 402 with a FAILED envelope',
    respond: () => Response.json({ status: 'FAILED', data: { code: '05', message: 'Do not honour' } }, { status: 402 }),
    status: 402,
    code: 'payment_declined',
    message: /declined/,
    said: 'Do not honour',
    outcome: 'declined',
  },
  {
    name: 'no answer within timeoutMs',
    respond: async (_call, signal) => {
      await delay(5_000, signal);
      return Response.json(ussdEnvelope('order-42'));
    },
    status: 504,
    code: 'gateway_timeout',
    message: /did not answer in time/,
    outcome: 'timeout',
  },
  {
    name: 'headers in time but a body that never finishes',
    respond: (_call, signal) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"status":"SUCC'));
            signal?.addEventListener('abort', () => controller.error(signal.reason));
          },
        }),
      ),
    status: 504,
    code: 'gateway_timeout',
    message: /did not answer in time/,
    outcome: 'timeout',
  },
  {
    name: 'fetch rejecting with a network error',
    respond: () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } })),
    status: 502,
    code: 'gateway_unreachable',
    message: /could not be reached/,
    outcome: 'unreachable',
  },
];

describe('createSessionHandler: gateway failures', () => {
  for (const failure of FAILURES) {
    it(`maps ${failure.name} to ${failure.status} ${failure.code}`, async () => {
      // A short wait only where the time-out is the failure under test: the others must not run into it on a loaded
      // machine.
      const timeoutMs = failure.outcome === 'timeout' ? 50 : PATIENT.timeoutMs;
      const { handler, calls, events } = makeHandler({ timeoutMs }, failure.respond);
      const error = await readError(await handler(post(failure.request ?? USSD_REQUEST)), failure.status, failure.code);
      assert.match(error.message, failure.message);
      assert.equal(calls.length, 1);
      const gatewayEvent = events.find((event) => event.type === 'gateway');
      assert.equal(gatewayEvent?.type === 'gateway' && gatewayEvent.outcome, failure.outcome);
      if (failure.said) {
        assert.ok(!error.message.includes(failure.said), 'the gateway’s words do not reach the customer');
        assert.equal(gatewayEvent?.type === 'gateway' && gatewayEvent.detail, failure.said, 'onEvent hears them');
      }
    });
  }

  it('maps a refused connection on a closed 127.0.0.1 port to 502 gateway_unreachable', async () => {
    const port = await closedPort();
    const { handler, events } = makeHandler({
      ...PATIENT,
      baseUrl: `http://127.0.0.1:${port}`,
      fetch: globalThis.fetch,
    });
    await readError(await handler(post(USSD_REQUEST)), 502, 'gateway_unreachable');
    const gatewayEvent = events.find((event) => event.type === 'gateway');
    assert.deepEqual(gatewayEvent?.type === 'gateway' && [gatewayEvent.outcome, gatewayEvent.detail], [
      'unreachable',
      'ECONNREFUSED',
    ]);
  });

  it('answers a good envelope with the spec fields only, whatever else the gateway added', async () => {
    const good = transferEnvelope('order-42');
    const envelope = {
      ...good,
      traceId: 'abc',
      data: { ...good.data, extra: 1, payments: { ...good.data.payments, customerBvn: '22212345678' } },
    };
    const text = JSON.stringify(envelope, null, 2);
    const { handler } = makeHandler({}, () => new Response(text, { headers: { 'content-type': 'application/json' } }));
    const response = await handler(post(TRANSFER_REQUEST));
    assert.equal(response.status, 200);
    const { order, ...envelopeSent } = (await response.json()) as { order: { expiresAt?: string } };
    assert.deepEqual(envelopeSent, good);
    const { expiresAt, expiresInMs, ...charged } = order as typeof order & { expiresInMs?: number }; // a TRANSFER's validity: session-order-extras.test.ts, server-time-left.test.ts
    assert.deepEqual(charged, { paymentReference: 'order-42', amount: '2500.00', currency: 'NGN' });
    assert.ok(expiresAt && expiresInMs);
  });

  it('does not store an unconfirmed status as final: a retry asks the gateway again', async () => {
    let attempt = 0;
    const { handler, calls } = makeHandler({}, (call, signal) =>
      ++attempt === 1 ? Response.json({ status: 'PENDING', data: null }) : answerSuccess(call, signal),
    );
    const key = { 'idempotency-key': 'attempt-pending-01' };
    await readError(await handler(post(USSD_REQUEST, key)), 502, 'gateway_error');
    assert.equal((await handler(post(USSD_REQUEST, key))).status, 200);
    assert.equal(calls.length, 2);
  });

  it('does not follow a redirect: the body never reaches the other address', async () => {
    const seen: string[] = [];
    const servers: Server[] = [];
    const listen = async (server: Server) => {
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    };
    try {
      const elsewhere = await listen(
        createHttpServer((request, response) => {
          seen.push(request.url ?? '');
          request.resume();
          response.end('{}');
        }),
      );
      const gateway = await listen(
        createHttpServer((request, response) => {
          request.resume();
          response.writeHead(307, { location: `${elsewhere}/steal` }).end();
        }),
      );
      const { handler } = makeHandler({ ...PATIENT, baseUrl: gateway, fetch: globalThis.fetch });
      await readError(await handler(post(USSD_REQUEST)), 502, 'gateway_error');
      assert.deepEqual(seen, []);
    } finally {
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    }
  });

  it('shortens a very long gateway message for onEvent, and never shows it to the customer', async () => {
    const { handler, events } = makeHandler({}, () => Response.json({ message: 'x'.repeat(5000) }, { status: 500 }));
    const error = await readError(await handler(post(USSD_REQUEST)), 502, 'gateway_error');
    assert.doesNotMatch(error.message, /xxx/);
    const gatewayEvent = events.find((event) => event.type === 'gateway');
    assert.equal(gatewayEvent?.type === 'gateway' && gatewayEvent.detail?.length, 300);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
