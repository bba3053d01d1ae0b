import type { GatewayOutcome } from './gateway-client.js';
import { errorReply, type Reply } from './reply.js';

/**
 * `definitive` answers (instructions, a decline) are kept for replay under the Idempotency-Key;
 * the others may have left a payment half-made, so a retry asks the gateway again with the same
 * paymentReference.
 */
export type GatewayReply = { reply: Reply; definitive: boolean };

export function replyForOutcome(outcome: GatewayOutcome, redact: (text: string) => string): GatewayReply {
  const said = (message: string | undefined, fallback: string) => (message ? redact(message) : fallback);
  switch (outcome.kind) {
    case 'success':
      return { reply: { status: 200, body: redact(outcome.body) }, definitive: true };
    case 'declined':
      return {
        reply: errorReply('payment_declined', said(outcome.message, 'The payment was declined.')),
        definitive: true,
      };
    case 'http-error':
      return {
        reply: errorReply(
          'gateway_error',
          said(outcome.message, `The payment gateway answered with HTTP ${outcome.httpStatus}.`),
        ),
        definitive: false,
      };
    case 'missing-fields':
      return {
        reply: errorReply(
          'invalid_gateway_response',
          said(outcome.message, "The payment gateway's answer lacked the payment details."),
        ),
        definitive: false,
      };
    case 'unreadable':
      return {
        reply: errorReply('invalid_gateway_response', "The payment gateway's answer could not be read."),
        definitive: false,
      };
    case 'timeout':
      return { reply: errorReply('gateway_timeout', 'The payment gateway did not answer in time.'), definitive: false };
    case 'unreachable':
      return { reply: errorReply('gateway_unreachable', 'The payment gateway could not be reached.'), definitive: false };
  }
}
