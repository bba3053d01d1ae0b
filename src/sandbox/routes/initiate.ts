// `POST …/api/v2/payments/initiates` (docs/architecture.md): checks the bearer token, the content type, the body and
// the gateway's published rules, then answers the payment's envelope. A reference it already has: the same payment
// re-initiated with `retry: true` gets its first answer, without it the gateway's duplicate-reference answer; a
// reference reused for another payment 409. Magic amounts misbehave on purpose.
import { readJsonBody, requireJson } from '../../contract/request-checks.js';
import type { GatewayRequest } from '../../contract/schemas.js';
import { INITIATE_PATH } from '../../contract/gateway-paths.js';
import { duplicateReferenceEnvelope, failure, incompleteEnvelope, json } from '../answers.js';
import { checkInitiation } from '../initiation-rules.js';
import { magicAmountOf } from '../magic-amounts.js';
import type { SandboxPayment } from '../payments.js';
import {
  authorised,
  delay,
  MAX_BODY_BYTES,
  problemAnswer,
  unauthorised,
  type SandboxContext,
  type SandboxRoute,
} from './route.js';

export function initiateRoute(context: SandboxContext): SandboxRoute {
  return {
    allow: 'POST',
    match: (path) => (path.endsWith(INITIATE_PATH) ? [] : undefined),
    handle: (request) => initiate(context, request),
  };
}

async function initiate(context: SandboxContext, request: Request): Promise<Response> {
  if (!authorised(context, request)) return unauthorised(request);
  const wrongType = requireJson(request);
  if (wrongType) return problemAnswer(wrongType);
  const read = await readJsonBody(request, { maxBytes: MAX_BODY_BYTES });
  if (!read.ok) return problemAnswer(read.problem);
  const checked = checkInitiation(read.json, context.publicKey);
  if (!checked.ok) return checked.answer;
  const body = checked.body;

  const existing = context.payments.get(body.paymentReference);
  return existing ? reinitiation(existing, body) : answer(context, body, request.signal);
}

/**
 * Companion §5, "Re-initiating a reference": the gateway's apps send `retry: true` on every
 * initiation of a reference after its first, and get the same instructions (the same dial code or
 * account); without it, the gateway answers as to any duplicate reference (§4, 200 + `S18`).
 */
function reinitiation(existing: SandboxPayment, body: GatewayRequest): Response {
  if (existing.paymentType !== body.paymentType || existing.amount !== body.amount) {
    return failure(409, 'This paymentReference was already used for another payment.');
  }
  return body.retry === true ? json(200, existing.envelope) : json(200, duplicateReferenceEnvelope());
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
