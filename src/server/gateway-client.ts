import { envelopeSchema, readEnvelope, type GatewayRequest, type PaymentType } from '../schemas.js';

export const INITIATE_PATH = '/api/v2/payments/initiates';

export type GatewayOutcome =
  | { kind: 'success'; httpStatus: number; body: string }
  /** The gateway answered with an envelope whose status is not SUCCESS: it refused the payment. */
  | { kind: 'declined'; httpStatus: number; message: string | undefined }
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

export type GatewayCall = (body: GatewayRequest, accessToken: string) => Promise<GatewayOutcome>;

/** One POST to the gateway, every way it can end turned into a {@link GatewayOutcome}; it never throws. */
export function createGatewayClient(options: GatewayClientOptions): GatewayCall {
  const url = options.baseUrl.replace(/\/+$/, '') + INITIATE_PATH;

  return async (body, accessToken) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
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
        signal: controller.signal,
      });
      // The time-out also covers a body that trickles in.
      text = await response.text();
    } catch (error) {
      if (controller.signal.aborted) return { kind: 'timeout' };
      return { kind: 'unreachable', reason: describeNetworkError(error) };
    } finally {
      clearTimeout(timer);
    }
    return interpret(response.status, text, body.paymentType);
  };
}

function interpret(httpStatus: number, text: string, paymentType: PaymentType): GatewayOutcome {
  const json = parseJson(text);
  const message = gatewayMessage(json);
  const ok = httpStatus >= 200 && httpStatus < 300;

  if (!ok) {
    if (httpStatus === 402 && envelopeSchema.safeParse(json).success) return { kind: 'declined', httpStatus, message };
    return { kind: 'http-error', httpStatus, message };
  }
  if (json === undefined) return { kind: 'unreadable', httpStatus };
  const read = readEnvelope(json, paymentType);
  if (read.ok) return { kind: 'success', httpStatus, body: text };
  if (read.reason === 'not-success') return { kind: 'declined', httpStatus, message };
  if (read.reason === 'missing-fields') return { kind: 'missing-fields', httpStatus, message };
  return { kind: 'unreadable', httpStatus };
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
  return found?.trim().slice(0, 300);
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'unknown';
}
