import { getRequestListener } from '@hono/node-server';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, describe, it } from 'node:test';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import { createSessionHandler, type SessionHandlerOptions } from '../../src/server/internal.js';
import { loopbackServers } from './loopback.js';
import { ORDER, PATIENT, readError, TRANSFER_REQUEST, USSD_REQUEST, ussdEnvelope } from './server-fixtures.js';

const { listen, close } = loopbackServers();

after(close);

/** The session handler mounted through @hono/node-server, calling the in-process sandbox; counts what the sandbox is asked. */
async function merchantOnSandbox(options: Partial<SessionHandlerOptions> = {}) {
  const sandbox = createSandboxGateway();
  const references: string[] = [];
  const handler = createSessionHandler({
    baseUrl: 'https://sandbox.test',
    publicKey: SANDBOX_PUBLIC_KEY,
    accessToken: SANDBOX_ACCESS_TOKEN,
    order: () => ({ ...ORDER, paymentReference: `load-${crypto.randomUUID()}` }),
    fetch: async (input, init) => {
      references.push(String(JSON.parse(String(init?.body)).paymentReference));
      return sandbox.fetch(input, init);
    },
    ...options,
  });
  return { url: await listen(getRequestListener(handler)), references, sandbox };
}

function send(url: string, body: unknown, key: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
}

// The time-out only bounds a failure: 1,000 requests over loopback took over a minute on a loaded 2-core machine.
describe('createSessionHandler under load, over 127.0.0.1', { timeout: 180_000 }, () => {
  it('initiates 500 concurrent distinct payments: 500 distinct references, none lost', async () => {
    const { url, references, sandbox } = await merchantOnSandbox();
    const responses = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        send(url, i % 2 ? TRANSFER_REQUEST : USSD_REQUEST, `load-${i}-${crypto.randomUUID()}`),
      ),
    );
    const bodies = (await Promise.all(responses.map((response) => response.json()))) as {
      order: { paymentReference: string };
    }[];
    assert.deepEqual(new Set(responses.map((response) => response.status)), new Set([200]));
    const answered = new Set(bodies.map((body) => body.order.paymentReference));
    assert.equal(answered.size, 500);
    assert.equal(references.length, 500);
    assert.deepEqual(new Set(references), answered);
    for (const reference of answered) assert.ok(sandbox.lookup(reference), `${reference} is known to the gateway`);
  });

  it('makes exactly 100 initiations for 100 keys sent 5 times each, all at once', async () => {
    const { url, references } = await merchantOnSandbox();
    const keys = Array.from({ length: 100 }, (_, i) => `dup-${i}-${crypto.randomUUID()}`);
    const responses = await Promise.all(
      keys.flatMap((key) => Array.from({ length: 5 }, () => send(url, USSD_REQUEST, key))),
    );
    const bodies = await Promise.all(responses.map((response) => response.text()));
    assert.deepEqual(new Set(responses.map((response) => response.status)), new Set([200]));
    assert.equal(references.length, 100);
    assert.equal(new Set(references).size, 100);
    for (let k = 0; k < 100; k += 1) {
      assert.equal(new Set(bodies.slice(k * 5, k * 5 + 5)).size, 1, 'the five duplicates got one answer');
    }
  });
});

type Fault = {
  name: string;
  status: number;
  code: string;
  act(request: IncomingMessage, response: ServerResponse): void;
};

const FAULTS: Fault[] = [
  { name: 'a connection reset', status: 502, code: 'gateway_unreachable', act: (request) => request.socket.destroy() },
  { name: 'a hang past the deadline', status: 504, code: 'gateway_timeout', act: () => {} },
  {
    name: 'an HTML error page',
    status: 502,
    code: 'gateway_error',
    act: (_request, response) =>
      response.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>Bad Gateway</h1></html>'),
  },
  {
    name: 'truncated JSON',
    status: 502,
    code: 'invalid_gateway_response',
    act: (_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"SUCCESS","data":{"pay'),
  },
];

describe('createSessionHandler: a gateway fault, then a retry with the same key', { timeout: 30_000 }, () => {
  for (const fault of FAULTS) {
    it(`after ${fault.name}, the gateway sees the same paymentReference on the retry`, async () => {
      const seen: string[] = [];
      const gateway = await listen((request, response) => {
        let text = '';
        request.on('data', (chunk: Buffer) => (text += chunk));
        request.on('end', () => {
          const { paymentReference } = JSON.parse(text) as { paymentReference: string };
          seen.push(paymentReference);
          if (seen.length === 1) return fault.act(request, response);
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify(ussdEnvelope(paymentReference)));
        });
      });
      const handler = createSessionHandler({
        baseUrl: gateway,
        publicKey: SANDBOX_PUBLIC_KEY,
        accessToken: SANDBOX_ACCESS_TOKEN,
        // A resolver that gives a new reference each time it is asked: only the stored order keeps the retry on one
        // payment.
        order: () => ({ ...ORDER, paymentReference: `fault-${crypto.randomUUID()}` }),
        // Generous for a loaded machine: 30 s where the gateway answers, so only the hang waits its limit out.
        timeoutMs: fault.status === 504 ? 5_000 : PATIENT.timeoutMs,
      });
      const url = await listen(getRequestListener(handler));
      const key = `fault-${crypto.randomUUID()}`;
      await readError(await send(url, USSD_REQUEST, key), fault.status, fault.code);
      const retry = await send(url, USSD_REQUEST, key);
      assert.equal(retry.status, 200, await retry.clone().text());
      assert.equal(seen.length, 2);
      assert.equal(seen[1], seen[0]);
      assert.equal(((await retry.json()) as { order: { paymentReference: string } }).order.paymentReference, seen[0]);
    });
  }
});
