// The client's address given to `beforeInitiate`: what the server adapter passes beside the request.

/**
 * Finds the client's address. `env` is the handler's second argument, whatever the adapter passes:
 * the default reads `env.incoming.socket.remoteAddress` (@hono/node-server's `getRequestListener` and
 * `serve`) and `env.remoteAddr.hostname` (`Deno.serve`). Behind a proxy, pass your own that reads
 * the header your proxy sets (and only that proxy can set).
 */
export type ClientAddress = (request: Request, env: unknown) => string | undefined;

export const adapterClientAddress: ClientAddress = (_request, env) => {
  const given = env as { incoming?: { socket?: { remoteAddress?: unknown } }; remoteAddr?: { hostname?: unknown } } | undefined;
  const address = given?.incoming?.socket?.remoteAddress ?? given?.remoteAddr?.hostname;
  return typeof address === 'string' ? address : undefined;
};
