import type { CheckedEnvelope, GatewayOutcome } from './gateway-client.js';
import { errorReply, jsonReply, type Reply } from './reply.js';

/**
 * `definitive` answers (instructions, a decline) are kept for replay under the Idempotency-Key;
 * the others may have left a payment half-made, so a retry asks the gateway again with the same
 * paymentReference.
 */
export type GatewayReply = { reply: Reply; definitive: boolean };

/** The longest gateway message passed on, counted after redaction. */
export const MAX_MESSAGE_LENGTH = 300;

/** For 401 and 403: the merchant's credentials, nothing the customer can act on or should read. */
const UNAVAILABLE = 'Payments are unavailable right now. Please try again later.';

/** Redacts first, then shortens: a cut made first could leave a secret's prefix for redaction to miss. */
export function shortened(message: string, redact: (text: string) => string): string {
  return redact(message).slice(0, MAX_MESSAGE_LENGTH);
}

/** What `onEvent` hears of an outcome: the gateway's message, redacted, or the network error code. */
export function outcomeDetail(outcome: GatewayOutcome, redact: (text: string) => string): string | undefined {
  switch (outcome.kind) {
    case 'unreachable':
      return outcome.reason;
    case 'unconfirmed':
      return shortened(outcome.message ? `${outcome.status}: ${outcome.message}` : outcome.status, redact);
    case 'declined':
    case 'http-error':
    case 'missing-fields':
      return outcome.message ? shortened(outcome.message, redact) : undefined;
    default:
      return undefined;
  }
}

export function replyForOutcome(outcome: GatewayOutcome, redact: (text: string) => string): GatewayReply {
  const said = (message: string | undefined, fallback: string) => (message ? shortened(message, redact) : fallback);
  switch (outcome.kind) {
    case 'success':
      return { reply: jsonReply(200, redactEnvelope(outcome.envelope, redact)), definitive: true };
    case 'declined':
      return {
        reply: errorReply('payment_declined', said(outcome.message, 'The payment was declined.')),
        definitive: true,
      };
    case 'unconfirmed':
      return {
        reply: errorReply('gateway_error', 'The payment gateway did not confirm the payment. Please try again.'),
        definitive: false,
      };
    case 'http-error':
      return {
        reply: errorReply(
          'gateway_error',
          outcome.httpStatus === 401 || outcome.httpStatus === 403
            ? UNAVAILABLE
            : said(outcome.message, `The payment gateway answered with HTTP ${outcome.httpStatus}.`),
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

function redactEnvelope(envelope: CheckedEnvelope, redact: (text: string) => string): CheckedEnvelope {
  const { code, message, payments } = envelope.data;
  return {
    status: envelope.status,
    data: {
      code: code === null ? null : redact(code),
      message: message === null ? null : redact(message),
      payments: Object.fromEntries(Object.entries(payments).map(([field, value]) => [field, redact(value)])),
    },
  };
}
