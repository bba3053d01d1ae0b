// `POST …/api/v2/payments/initiates` (spec 4.1): checks the bearer token, the content type, the
// body and the spec's rules, then answers the payment's envelope; the same payment again gets its
// first answer, a reference reused for another payment 409. Magic amounts misbehave on purpose.
import { readJsonBody, requireJson } from '../../server/http/checks.js';
import type { GatewayRequest } from '../../schemas.js';
import { INITIATE_PATH } from '../../wire/gateway-paths.js';
import { failure, incompleteEnvelope, json } from '../answers.js';
import { checkInitiation } from '../initiation-rules.js';
import { magicAmountOf } from '../magic-amounts.js';
import { authorised, delay, MAX_BODY_BYTES, problemAnswer, unauthorised, type SandboxContext, type SandboxRoute } from './route.js';

export function initiateRoute(context: SandboxContext): SandboxRoute {
  return {
    allow: 'POST',
    match: (path) => (path.endsWith(INITIATE_PATH) ? [] : undefined),
    handle: (request) => initiate(context, request),
  };
}

async function initiate(context: SandboxContext, request: Request): Promise<Response> {
  if (!authorised(context, request)) return unauthorised();
  const wrongType = requireJson(request);
  if (wrongType) return problemAnswer(wrongType);
  const read = await readJsonBody(request, { maxBytes: MAX_BODY_BYTES });
  if (!read.ok) return problemAnswer(read.problem);
  const checked = checkInitiation(read.json, context.publicKey);
  if (!checked.ok) return checked.answer;
  const body = checked.body;

  const existing = context.payments.get(body.paymentReference);
  if (existing) {
    return existing.paymentType === body.paymentType && existing.amount === body.amount
      ? json(200, existing.envelope)
      : failure(409, 'This paymentReference was already used for another payment.');
  }
  return answer(context, body, request.signal);
}

/** The payment's envelope, or the failure or delay its magic amount stands for. */
async function answer(context: SandboxContext, body: GatewayRequest, signal: AbortSignal): Promise<Response> {
  switch (magicAmountOf(body.amount)) {
    case 402:
      return failure(402, 'Insufficient funds', { status: 'FAILED', code: '51' });
    case 422:
      return json(200, incompleteEnvelope(body.paymentType, body.paymentReference));
    case 500:
      return failure(500, 'System malfunction, please try again', { code: '96' });
    case 502:
      return new Response('{"status":"SUCCESS","data":{"code":null,"payme', {
        headers: { 'content-type': 'application/json' },
      });
    case 503:
      return new Response(null, { status: 503 });
    case 504: {
      const payment = context.payments.create(body);
      await delay(context.slowMs, signal);
      return json(200, payment.envelope);
    }
    default:
      return json(200, context.payments.create(body).envelope);
  }
}
