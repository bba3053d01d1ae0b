import type { ErrorBody } from '../schemas.js';
import { ERROR_STATUS, type ErrorCode, type FieldErrors } from './errors.js';

/**
 * An answer before it becomes a `Response`: plain data, so the idempotency store can keep it and
 * the CORS headers are added in one place.
 */
export type Reply = { status: number; body: string; headers?: Record<string, string> };

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(value), headers };
}

export function errorReply(
  code: ErrorCode,
  message: string,
  fields?: FieldErrors,
  headers?: Record<string, string>,
): Reply {
  const body: ErrorBody = { status: 'ERROR', error: fields ? { code, message, fields } : { code, message } };
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
