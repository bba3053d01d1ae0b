// Serves a Fetch-API handler on 127.0.0.1 with Node's own `http` (the check carries no adapter
// dependency): each request becomes a `Request`, each `Response` is written back, and `'drop'`
// closes the connection unanswered, as a gateway that timed out would leave it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ObservedAnswer } from './observed-sandbox.js';

export type ServedHandler = { url: string; close(): Promise<void> };

export async function serveOnLoopback(handler: (request: Request) => Promise<ObservedAnswer>, port = 0): Promise<ServedHandler> {
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

async function answer(handler: (request: Request) => Promise<ObservedAnswer>, incoming: IncomingMessage, outgoing: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = incoming.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
  const result = await handler(new Request(`http://127.0.0.1${incoming.url ?? '/'}`, { method, headers, body }));
  if (result === 'drop') {
    outgoing.destroy();
    return;
  }
  const text = Buffer.from(await result.arrayBuffer());
  outgoing.writeHead(result.status, Object.fromEntries(result.headers));
  outgoing.end(text);
}
