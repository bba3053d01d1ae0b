// The initiation (docs/architecture.md, "The initiation"): the request built from the widget's fields and the
// server's order, the POST, and the gateway's answer read into an outcome.
import { readEnvelope } from '../../contract/envelope.js';
import { PAYMENTS_PATTERNS, type PaymentType } from '../../contract/rules.js';
import type { GatewayRequest, SessionRequest } from '../../contract/schemas.js';
import { INITIATE_PATH } from '../../contract/gateway-paths.js';
import { isRecord, parseJson } from '../../contract/json.js';
import type { ResolvedOrder } from '../session/order.js';
import { isOk, jsonHeaders, MAX_RAW_MESSAGE, type Exchange, type Send } from './exchange.js';
import type { AuthorisedCall } from './token.js';
import type { CheckedEnvelope, GatewayOutcome, InitiateOutcome } from './types.js';

/** Envelope statuses that refuse the payment for good; the spec shows only `SUCCESS`. */
const FINAL_FAILURE = /^(FAILED|DECLINED|ERROR)$/i;

type InitiationParts = {
  baseUrl: string;
  send: Send;
  authorised: <T>(call: AuthorisedCall<T>) => Promise<T>;
  /** The token, the keys and anything after `Bearer `, out of the gateway's words. */
  redact: (text: string) => string;
};

/** `Gateway.initiate`: posts `body`; after a 401, the same body once more with a renewed token. */
export function initiation({ baseUrl, send, authorised, redact }: InitiationParts) {
  return async (body: GatewayRequest, signal: AbortSignal | undefined): Promise<InitiateOutcome> => {
    const outcome = await authorised<InitiateOutcome>({
      call: async (token) =>
        readInitiation(
          await send(
            baseUrl + INITIATE_PATH,
            { method: 'POST', headers: jsonHeaders(token), body: JSON.stringify(body) },
            signal,
          ),
          body.paymentType,
          redact,
        ),
      unauthorised: (outcome) => outcome.kind === 'http-error' && outcome.httpStatus === 401,
      signal,
      failed: (failure) => failure,
    });
    return outcome;
  };
}

/**
 * The initiation's answer (docs/architecture.md, "The initiation") as an outcome. Every string from the gateway
 * is `redact`ed before it is shortened or kept: the answer may echo anything it was sent.
 */
function readInitiation(answer: Exchange, paymentType: PaymentType, redact: (text: string) => string): GatewayOutcome {
  if (answer.kind !== 'answer') return answer;
  const httpStatus = answer.status;
  const json = parseJson(answer.text);
  const message = gatewayMessage(json, redact);

  if (httpStatus === 402) return { kind: 'declined', httpStatus, message };
  if (!isOk(httpStatus)) {
    return isDuplicateReference(httpStatus, json, message)
      ? { kind: 'duplicate-reference', httpStatus, message }
      : { kind: 'http-error', httpStatus, message };
  }
  if (json === undefined) return { kind: 'unreadable', httpStatus };
  const read = readEnvelope(json, paymentType);
  if (read.ok)
    return { kind: 'success', httpStatus, envelope: redactEnvelope(checkedEnvelope(json, paymentType), redact) };
  if (isDuplicateReference(httpStatus, json, message)) return { kind: 'duplicate-reference', httpStatus, message };
  if (read.reason === 'not-success') {
    const status = String((json as { status: string }).status);
    return FINAL_FAILURE.test(status.trim())
      ? { kind: 'declined', httpStatus, message }
      : { kind: 'unconfirmed', httpStatus, status: redact(status).slice(0, 40), message };
  }
  if (read.reason === 'missing-fields') return { kind: 'missing-fields', httpStatus, message };
  return { kind: 'unreadable', httpStatus };
}

/**
 * §4: 200 + `S18`; 200 + `S12` saying the reference must be unique; `S14`; HTTP 500 (or 409)
 * "Transaction with reference exists"; HTTP 400 `status: "ERROR"` + `S12` "Duplicate transaction reference".
 */
function isDuplicateReference(httpStatus: number, json: unknown, message: string | undefined): boolean {
  const data = isRecord(json) && isRecord(json.data) ? json.data : {};
  const code = typeof data.code === 'string' ? data.code.trim().toUpperCase() : '';
  const text = message ?? '';
  if (httpStatus === 500 || httpStatus === 409) return /reference exists/i.test(text);
  if (code === 'S14') return isOk(httpStatus) || httpStatus === 400;
  if (httpStatus === 400) return code === 'S12' && /duplicate/i.test(text);
  return isOk(httpStatus) && (code === 'S18' || (code === 'S12' && /must be unique/i.test(text)));
}

/** Called once `readEnvelope` accepted `json`: `data.payments` holds every field the type needs. */
function checkedEnvelope(json: unknown, paymentType: PaymentType): CheckedEnvelope {
  const data = (json as { data: { code?: unknown; message?: unknown; payments: Record<string, string> } }).data;
  const fields = Object.keys(PAYMENTS_PATTERNS[paymentType]);
  return {
    status: 'SUCCESS',
    data: {
      code: typeof data.code === 'string' ? data.code : null,
      message: typeof data.message === 'string' ? data.message : null,
      payments: Object.fromEntries(fields.map((field) => [field, data.payments[field]!])),
    },
  };
}

/** The envelope's strings without the token or a key: the gateway's answer may echo anything it was sent. */
export function redactEnvelope(envelope: CheckedEnvelope, redact: (text: string) => string): CheckedEnvelope {
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

/** §4: `data.message`, then `message`, then `error` (a string, or an object's `message`), redacted. */
function gatewayMessage(json: unknown, redact: (text: string) => string): string | undefined {
  if (!isRecord(json)) return undefined;
  const body = json as { data?: { message?: unknown }; message?: unknown; error?: unknown };
  const error = body.error as { message?: unknown } | string | undefined;
  const candidates = [body.data?.message, body.message, typeof error === 'string' ? error : error?.message];
  const found = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return found && redact(found.trim()).slice(0, MAX_RAW_MESSAGE);
}

/** What the merchant's options add to a TRANSFER request (docs/architecture.md, "The initiation"). */
type TransferRequestOptions = {
  /** How many days the account stays open, a digit string; default `"1"`, as the gateway's apps send. */
  walletDaysActive?: string;
};

/**
 * The spec's request (2.1): customer fields from the widget, money and references from the server's
 * order, `bankCode` for USSD only. TRANSFER adds what the gateway's own apps send (docs/architecture.md): a
 * fixed amount and the account's days of validity. `retry: true` when the reference was initiated
 * before (docs/architecture.md, "The initiation").
 */
export function buildGatewayRequest(
  request: SessionRequest,
  order: ResolvedOrder,
  publicKey: string,
  transfer: TransferRequestOptions = {},
  retry = false,
): GatewayRequest {
  const body: GatewayRequest = {
    publicKey,
    amount: order.amount,
    fullName: request.fullName,
    mobileNumber: request.mobileNumber,
    email: request.email,
    currency: order.currency,
    country: order.country,
    paymentReference: order.paymentReference,
    callbackUrl: order.callbackUrl,
    redirectUrl: order.redirectUrl,
    paymentType: request.paymentType,
  };
  if (request.paymentType === 'USSD') body.bankCode = request.bankCode;
  else Object.assign(body, { amountControl: 'FIXEDAMOUNT', walletDaysActive: transfer.walletDaysActive ?? '1' });
  if (retry) body.retry = true;
  return body;
}
