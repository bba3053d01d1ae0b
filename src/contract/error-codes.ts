// The error catalogue our endpoints and the sandbox answer from, with each code's HTTP status.

/**
 * Every error the session and status endpoints answer with, and its HTTP status. The body is always
 * the session-endpoint contract's `{ status: "ERROR", error: { code, message, fields?, retryable? } }`.
 */
export const ERROR_STATUS = {
  method_not_allowed: 405,
  unsupported_media_type: 415,
  payload_too_large: 413,
  invalid_json: 400,
  validation: 400,
  invalid_idempotency_key: 400,
  missing_idempotency_key: 400,
  origin_not_allowed: 403,
  not_found: 404,
  request_timeout: 408,
  idempotency_key_in_use: 409,
  order_changed: 409,
  idempotency_key_reused: 422,
  order_refused: 422,
  duplicate_reference: 422,
  rate_limited: 429,
  payment_declined: 402,
  gateway_error: 502,
  gateway_unreachable: 502,
  invalid_gateway_response: 502,
  gateway_timeout: 504,
  internal: 500,
  config: 500,
  server_busy: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
