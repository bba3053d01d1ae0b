// Serves a Fetch-API handler on 127.0.0.1 with Node's own `http` (the check carries no adapter
// dependency): each request becomes a `Request`, each `Response` is written back, and `'drop'`
// closes the connection unanswered, as a gateway that timed out would leave it. A request's body
// reaches the handler as a stream, pulled only as far as the handler reads it (the sandbox stops
// after its limit and answers 413): an enormous upload is never held, and its connection is closed
// once answered rather than read to its end.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObservedAnswer } from './observed-sandbox.js';

export type ServedHandler = { url: string; close(): Promise<void> };

/** How much of a request body waits in the stream before the socket is paused. */
const BODY_BUFFER_BYTES = 64 * 1024;

export async function serveOnLoopback(
  handler: (request: Request) => Promise<ObservedAnswer>,
  port = 0,
): Promise<ServedHandler> {
  const server = createServer((incoming, outgoing) => {
    answer(handler, incoming, outgoing).catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  handler: (request: Request) => Promise<ObservedAnswer>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = incoming.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : bodyStream(incoming);
  const init = { method, headers, body, duplex: 'half' } as RequestInit;
  const result = await handler(new Request(`http://127.0.0.1${incoming.url ?? '/'}`, init));
  if (result === 'drop') {
    outgoing.destroy();
    return;
  }
  const unread = incoming.complete ? {} : { connection: 'close' };
  outgoing.writeHead(result.status, { ...Object.fromEntries(result.headers), ...unread });
  if (!result.body) return void outgoing.end();
  await pipeline(Readable.fromWeb(result.body as never), outgoing);
}

/** The request's body, read from the socket only while the stream wants more; cancelling it stops reading. */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let finished = false;
  const stop = () => {
    finished = true;
    incoming.off('data', onData);
    incoming.pause();
  };
  let onData: (chunk: Buffer) => void = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onData = (chunk) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        };
        incoming.pause();
        incoming.on('data', onData);
        incoming.once('end', () => finished || (stop(), controller.close()));
        incoming.once('error', (error) => finished || (stop(), controller.error(error)));
      },
      pull() {
        if (!finished) incoming.resume();
      },
      cancel: stop,
    },
    { highWaterMark: BODY_BUFFER_BYTES, size: (chunk) => chunk.byteLength },
  );
}
