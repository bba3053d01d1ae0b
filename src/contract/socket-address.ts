// The peer's address as the server adapter saw it on the socket, never a header: what
// @hono/node-server (`env.incoming.socket.remoteAddress`), `Deno.serve` (`env.remoteAddr.hostname`)
// and `Bun.serve` (`env.requestIP(request).address`) pass beside the request. The session
// endpoint's default client address and the sandbox's "customer paid" both read it here.

type AdapterEnv = {
  incoming?: { socket?: { remoteAddress?: unknown } };
  remoteAddr?: { hostname?: unknown };
  requestIP?: (request: Request) => { address?: unknown } | null;
};

export function socketAddress(request: Request, env: unknown): string | undefined {
  const given = env as AdapterEnv | undefined;
  const address =
    given?.incoming?.socket?.remoteAddress ??
    given?.remoteAddr?.hostname ??
    (typeof given?.requestIP === 'function' ? given.requestIP(request)?.address : undefined);
  return typeof address === 'string' ? address : undefined;
}
