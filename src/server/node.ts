/**
 * `pay-widget/server/node`: the payments handler for Node's `http`, Express and Fastify.
 *
 * ```js
 * app.all('/pay/*splat', toNodeHandler(payments)); // Express 5, before or after express.json()
 * http.createServer(toNodeHandler(payments));      // node:http, every path to the payments
 * ```
 */
import { getRequestListener } from '@hono/node-server';
import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Payments } from './payments.js';

/** A request a framework may have read already: Express's `req.body`, or Fastify's when passed on. */
type NodeRequest = IncomingMessage & { body?: unknown; rawBody?: Buffer };

/**
 * `(req, res)` for `payments.handler`, built on `@hono/node-server` (the client's address reaches
 * `beforeInitiate` from the socket). A body a parser mounted before it already read
 * (`express.json()`, `express.text()`, `express.raw()`) is handed on as it was read instead of lost:
 * the endpoints read only JSON, and never rely on its exact bytes (a notification is verified by
 * asking the gateway).
 */
export function toNodeHandler(
  payments: Pick<Payments, 'handler'>,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const listener = getRequestListener((request, env) => payments.handler(request, env));
  return (request, response) => listener(withBodyRead(request as NodeRequest), response);
}

/** Puts a parsed body back as `rawBody`, which @hono/node-server reads instead of the spent stream. */
function withBodyRead(request: NodeRequest): NodeRequest {
  const { body } = request;
  if (!request.readableEnded || body === undefined || request.rawBody instanceof Buffer) return request;
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  request.rawBody = raw;
  request.headers['content-length'] = String(raw.byteLength);
  delete request.headers['transfer-encoding'];
  return request;
}
