// The demo's own endpoints, beside the package's handlers: POST /pay/simulate ("the customer
// paid", or was declined, in the sandbox), GET /demo/events (the loop's steps for the page) and
// GET or POST /demo/webhook-lost (the "webhook lost" switch, webhook-lost.ts).
// Their request checks are the server's shared ones (src/server/http/checks.ts), answered in the
// session endpoint's error shape, which the page already reads.
import { readJsonBody, requireJson, requireMethod, type RequestProblem } from '../../src/contract/request-checks.js';
import { ERROR_STATUS } from '../../src/server/internal.js';
import type { SandboxGateway } from '../../src/sandbox/index.js';
import type { Log } from './config.js';
import type { LoopLog } from '../loop-log.js';
import type { WebhookLost } from './webhook-lost.js';

export type Handler = (request: Request) => Promise<Response>;

const SIMULATED_MESSAGES = {
  SUCCESS: 'Simulated by the demo: the customer approved the payment.',
  FAILED: "Simulated by the demo: the customer's bank declined the payment.",
} as const;

/** `{ paymentReference, status }` is a few dozen bytes. */
const MAX_SIMULATE_BYTES = 4_096;

export function simulateEndpoint(sandbox: SandboxGateway | undefined, loop: LoopLog, log: Log): Handler {
  return guarded(async (request) => {
    const refused = sameOriginPost(request);
    if (refused) return refused;
    if (!sandbox) {
      return demoError(
        409,
        'not_available',
        'This demo is talking to a real gateway: a payment can only be completed by paying it.',
      );
    }
    const read = await readJsonBody(request, { maxBytes: MAX_SIMULATE_BYTES });
    if (!read.ok) return problemError(read.problem);
    const { paymentReference, status: wanted } = (read.json ?? {}) as { paymentReference?: unknown; status?: unknown };
    const fields: Record<string, string> = {};
    if (typeof paymentReference !== 'string' || !/^[\w.:/-]{1,128}$/.test(paymentReference)) {
      fields.paymentReference = 'Give the paymentReference from pay-initiated.';
    }
    if (wanted !== 'SUCCESS' && wanted !== 'FAILED') fields.status = 'Use SUCCESS or FAILED.';
    if (Object.keys(fields).length > 0)
      return demoError(400, 'validation', 'Some fields are missing or invalid.', fields);
    const reference = paymentReference as string;
    const outcome = wanted as 'SUCCESS' | 'FAILED';
    if (!sandbox.lookup(reference))
      return demoError(404, 'not_found', 'The sandbox has no payment with this reference.');
    loop.customer(reference, outcome);
    sandbox.setStatus(reference, outcome, SIMULATED_MESSAGES[outcome]);
    log.info(`pay-widget demo: simulated ${outcome} for ${reference}`);
    return demoJson(200, { paymentReference: reference, ...sandbox.lookup(reference) });
  }, log);
}

export function eventsEndpoint(loop: LoopLog, log: Log): Handler {
  return guarded(async (request) => {
    const wrongMethod = requireMethod(request, 'GET');
    if (wrongMethod) return problemError(wrongMethod);
    const after = Number(new URL(request.url).searchParams.get('after') ?? 0);
    return demoJson(200, { steps: loop.since(Number.isFinite(after) ? after : 0) });
  }, log);
}

/** GET → `{ lost }`; a same-origin POST of `{ lost: boolean }` turns the switch on or off for payments started next. */
export function webhookLostEndpoint(webhookLost: WebhookLost | undefined, log: Log): Handler {
  return guarded(async (request) => {
    const wrongMethod = requireMethod(request, 'GET, POST');
    if (wrongMethod) return problemError(wrongMethod);
    if (request.method === 'GET') return demoJson(200, { lost: webhookLost?.on ?? false });
    const refused = sameOriginPost(request);
    if (refused) return refused;
    if (!webhookLost)
      return demoError(
        409,
        'not_available',
        'This demo is talking to a real gateway: its webhooks are not the demo’s to drop.',
      );
    const read = await readJsonBody(request, { maxBytes: MAX_SIMULATE_BYTES });
    if (!read.ok) return problemError(read.problem);
    const { lost } = (read.json ?? {}) as { lost?: unknown };
    if (typeof lost !== 'boolean')
      return demoError(400, 'validation', 'Some fields are missing or invalid.', { lost: 'Use true or false.' });
    webhookLost.set(lost);
    log.info(`pay-widget demo: webhooks of new payments ${lost ? 'are lost' : 'are delivered'}`);
    return demoJson(200, { lost });
  }, log);
}

/** Same-origin POSTs of JSON only (a cross-site form cannot send JSON without a refused preflight). */
function sameOriginPost(request: Request): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(request.url).origin) {
    return demoError(403, 'origin_not_allowed', 'This endpoint answers its own page only.');
  }
  const problem = requireMethod(request, 'POST') ?? requireJson(request);
  return problem && problemError(problem);
}

/** Nothing thrown becomes a bare 500. */
function guarded(handler: Handler, log: Log): Handler {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      log.warn(`pay-widget demo: ${new URL(request.url).pathname} failed: ${String(error)}`);
      return demoError(500, 'internal', 'Something went wrong on our side. Please try again.');
    }
  };
}

function demoJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

/** The session-endpoint contract's error shape, which the page already reads. */
function demoError(
  status: number,
  code: string,
  message: string,
  fields?: Record<string, string>,
  headers?: Record<string, string>,
): Response {
  return demoJson(status, { status: 'ERROR', error: { code, message, ...(fields ? { fields } : {}) } }, headers);
}

function problemError(problem: RequestProblem): Response {
  return demoError(ERROR_STATUS[problem.code], problem.code, problem.message, undefined, problem.headers);
}
