// A body something read before the session handler (express.json() mounted first, c.req.json() in
// Hono) is the merchant's setup error, named as such: 500 `config` to the customer, and to
// `onEvent` a `config` event saying to mount the handler before body parsers.
import { getRequestListener } from '@hono/node-server';
import assert from 'node:assert/strict';
import type { IncomingMessage, RequestListener } from 'node:http';
import { after, describe, it } from 'node:test';
import type { SessionEvent } from '../../src/server/internal.js';
import { loopbackServers } from './loopback.js';
import { makeHandler, post, readError, USSD_REQUEST } from './server-fixtures.js';

const { listen, close } = loopbackServers();
after(close);

/** As `express.json()` does: reads the whole body, then passes the request on. */
function jsonParserFirst(next: RequestListener): RequestListener {
  return (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      (request as IncomingMessage & { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString());
      next(request, response);
    });
  };
}

function assertNamesTheCause(events: SessionEvent[]) {
  const config = events.filter((event) => event.type === 'internal-error' && event.where === 'config');
  assert.equal(config.length, 1, JSON.stringify(events));
  assert.match((config[0] as { detail: string }).detail, /mount the handler before body parsers \(express\.json\(\)\)/);
}

describe('session handler: a request body read before it', () => {
  it('behind a body parser over HTTP (as express.json() does): 500 config, and onEvent names the cause', async () => {
    const { handler, calls, events } = makeHandler();
    const base = await listen(jsonParserFirst(getRequestListener(handler)));
    const response = await fetch(`${base}/pay/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'parsed-first-0001' },
      body: JSON.stringify(USSD_REQUEST),
    });
    const error = await readError(response, 500, 'config');
    assert.doesNotMatch(error.message, /express|parser/i, 'the customer sees the generic message');
    assert.equal(calls.length, 0);
    assertNamesTheCause(events);
  });

  it('a Request whose body was already read (bodyUsed): the same', async () => {
    const { handler, calls, events } = makeHandler();
    const request = post(USSD_REQUEST);
    await request.json();
    await readError(await handler(request), 500, 'config');
    assert.equal(calls.length, 0);
    assertNamesTheCause(events);
  });

  it('an empty body sent as such by a client stays 400 invalid_json', async () => {
    const { handler, events } = makeHandler();
    await readError(await handler(post('')), 400, 'invalid_json');
    assert.ok(!events.some((event) => event.type === 'internal-error'));
  });
});
