// The shell every endpoint shares: preflight, origin check, crash guard, CORS headers.
import type { CorsPolicy } from './cors.js';
import { toResponse, type Reply } from './reply.js';

type EndpointHooks = {
  /** Turns anything thrown into a JSON reply: no bare 500 leaves an endpoint. */
  crashed(error: unknown): Reply;
  refused?(reply: Reply): void;
};

/** The shell every endpoint shares: preflight, origin check, crash guard, CORS headers on the answer. */
export function corsEndpoint(
  cors: CorsPolicy,
  handle: (request: Request, env: unknown) => Promise<Reply>,
  hooks: EndpointHooks,
): (request: Request, env?: unknown) => Promise<Response> {
  return async (request, env) => {
    let corsHeaders: Record<string, string> = {};
    let reply: Reply;
    try {
      if (request.method === 'OPTIONS') {
        reply = cors.preflight(request);
      } else {
        const origin = cors.check(request);
        if (origin.allowed) {
          corsHeaders = origin.headers;
          reply = await handle(request, env);
        } else {
          reply = origin.reply;
          hooks.refused?.(reply);
        }
      }
    } catch (error) {
      reply = hooks.crashed(error);
    }
    const response = toResponse(reply, corsHeaders);
    return request.method === 'HEAD' ? new Response(null, response) : response;
  };
}
