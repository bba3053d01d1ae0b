import { INITIATE_PATH } from '../http/initiate-path.js';
import { readEnvelope } from '../envelope.js';
import { PAYMENTS_PATTERNS, type PaymentType } from '../rules.js';
import type { GatewayRequest } from '../schemas.js';
import type { AbortFlag } from './deadline.js';

/**
 * The spec's success envelope (2.2), rebuilt from the checked answer with only the fields the spec
 * names for the payment type (2.3, 2.4): whatever else the gateway put in it stays on the server.
 */
export type CheckedEnvelope = {
  status: 'SUCCESS';
  data: { code: string | null; message: string | null; payments: Record<string, string> };
};

export type GatewayOutcome =
  | { kind: 'success'; httpStatus: number; envelope: CheckedEnvelope }
  /** HTTP 402, or a 2xx envelope with a failure status (FAILED, DECLINED, ERROR): the payment was refused. */
  | { kind: 'declined'; httpStatus: number; message: string | undefined }
  /** A 2xx envelope with any other status (PENDING, …): nothing final, so a retry asks again. */
  | { kind: 'unconfirmed'; httpStatus: number; status: string; message: string | undefined }
  /** Any other status outside 2xx, redirects (never followed) included. */
  | { kind: 'http-error'; httpStatus: number; message: string | undefined }
  | { kind: 'missing-fields'; httpStatus: number; message: string | undefined }
  | { kind: 'unreadable'; httpStatus: number }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string };

export type GatewayClientOptions = {
  baseUrl: string;
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
};

/** `signal` abandons the call early (the handler's deadline); it then ends as a `timeout`. */
export type GatewayCall = (body: GatewayRequest, accessToken: string, signal?: AbortFlag) => Promise<GatewayOutcome>;

/** Envelope statuses that refuse the payment for good; the spec shows only `SUCCESS`. */
const FINAL_FAILURE = /^(FAILED|DECLINED|ERROR)$/i;

/**
 * The gateway's message is kept whole for redaction, which must see every secret in full before
 * anything shortens it; this bound only limits the work on an absurd body.
 */
const MAX_RAW_MESSAGE = 8192;

/** One POST to the gateway, every way it can end turned into a {@link GatewayOutcome}; it never throws. */
export function createGatewayClient(options: GatewayClientOptions): GatewayCall {
  const url = options.baseUrl.replace(/\/+$/, '') + INITIATE_PATH;

  return async (body, accessToken, signal) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    const timer = setTimeout(abort, options.timeoutMs);
    // One AbortController per call, for the time-out and the deadline both.
    const unsubscribe = signal?.onAbort(abort);
    let response: Response;
    let text: string;
    try {
      response = await options.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${accessToken}`,
        },
        body: JSON.stringify(body),
        // A redirect would send the public key and the customer's details to another address.
        redirect: 'manual',
        signal: controller.signal,
      });
      // The time-out also covers a body that trickles in.
      text = await response.text();
    } catch (error) {
      if (controller.signal.aborted) return { kind: 'timeout' };
      return { kind: 'unreachable', reason: describeNetworkError(error) };
    } finally {
      clearTimeout(timer);
      unsubscribe?.();
    }
    return interpret(response.status, text, body.paymentType);
  };
}

function interpret(httpStatus: number, text: string, paymentType: PaymentType): GatewayOutcome {
  const json = parseJson(text);
  const message = gatewayMessage(json);

  if (httpStatus === 402) return { kind: 'declined', httpStatus, message };
  if (httpStatus < 200 || httpStatus >= 300) return { kind: 'http-error', httpStatus, message };
  if (json === undefined) return { kind: 'unreadable', httpStatus };
  const read = readEnvelope(json, paymentType);
  if (read.ok) return { kind: 'success', httpStatus, envelope: checkedEnvelope(json, paymentType) };
  if (read.reason === 'not-success') {
    const status = String((json as { status: string }).status);
    return FINAL_FAILURE.test(status.trim())
      ? { kind: 'declined', httpStatus, message }
      : { kind: 'unconfirmed', httpStatus, status: status.slice(0, 40), message };
  }
  if (read.reason === 'missing-fields') return { kind: 'missing-fields', httpStatus, message };
  return { kind: 'unreadable', httpStatus };
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The gateway's own words, wherever a gateway or the proxy in front of it tends to put them. */
function gatewayMessage(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const body = json as { data?: { message?: unknown }; message?: unknown; error?: unknown };
  const error = body.error as { message?: unknown } | string | undefined;
  const candidates = [body.data?.message, body.message, typeof error === 'string' ? error : error?.message];
  const found = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return found?.trim().slice(0, MAX_RAW_MESSAGE);
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'unknown';
}
