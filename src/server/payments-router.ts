// The payments handler's routing: the last path segment under wherever it is mounted names the
// endpoint (…/session, …/status, …/webhook); anything else is 404.
import { errorReply, toResponse } from './http/reply.js';

export type Endpoint = (request: Request, env?: unknown) => Promise<Response>;
export type EndpointName = 'session' | 'status' | 'webhook';
export type Endpoints = Record<EndpointName, Endpoint>;

/**
 * A handler that sends each request to its endpoint once `ready` gives them; when `ready` fails
 * (the stores could not give the status secret), `unavailable` hears of it and the client is told
 * to try again.
 */
export function routeByLastSegment(
  ready: () => Promise<Endpoints>,
  unavailable: (name: EndpointName, error: unknown) => void,
): Endpoint {
  return async (request, env) => {
    const name = lastSegment(request.url);
    if (name !== 'session' && name !== 'status' && name !== 'webhook') {
      return toResponse(
        errorReply('not_found', 'Nothing is served at this path: use …/session, …/status or …/webhook.'),
        {},
      );
    }
    let endpoint: Endpoint;
    try {
      endpoint = (await ready())[name];
    } catch (error) {
      unavailable(name, error);
      return toResponse(
        errorReply('server_busy', 'Payments are unavailable for a moment. Please try again.', { retryable: true }),
        {},
      );
    }
    return endpoint(request, env);
  };
}

function lastSegment(url: string): string {
  return new URL(url).pathname.replace(/\/+$/, '').split('/').pop() ?? '';
}
