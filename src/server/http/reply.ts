// The error catalogue every endpoint answers from, and the JSON replies it is sent as.
import type { ErrorBody } from '../../contract/schemas.js';

import { ERROR_STATUS, type ErrorCode } from '../../contract/error-codes.js';

export { ERROR_STATUS, type ErrorCode };

/** Field name → what is wrong with it, in words a customer can act on. */
export type FieldErrors = Record<string, string>;

/**
 * An answer before it becomes a `Response`: plain data, so the idempotency store can keep it and
 * the CORS headers are added in one place.
 */
export type Reply = { status: number; body: string; headers?: Record<string, string> };

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(value), headers };
}

export type ErrorReplyOptions = {
  /** Field name → what is wrong with it, for a `validation`-style answer. */
  fields?: FieldErrors;
  headers?: Record<string, string>;
  /** Whether the same request may succeed when tried again; absent, the body does not say. */
  retryable?: boolean;
};

export function errorReply(code: ErrorCode, message: string, options: ErrorReplyOptions = {}): Reply {
  const { fields, headers, retryable } = options;
  const body: ErrorBody = {
    status: 'ERROR',
    error: { code, message, ...(fields ? { fields } : {}), ...(retryable === undefined ? {} : { retryable }) },
  };
  return jsonReply(ERROR_STATUS[code], body, headers);
}

export function toResponse(reply: Reply, extraHeaders: Record<string, string>): Response {
  // 204 and 304 must not carry a body, not even an empty one.
  return new Response(reply.status === 204 || reply.status === 304 ? null : reply.body, {
    status: reply.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...reply.headers,
      ...extraHeaders,
    },
  });
}
