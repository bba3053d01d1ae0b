/**
 * `pay-widget/server`: the merchant's session endpoint and status endpoint, as Fetch-API handlers.
 * Never imports Lit; runs on Node 20+, Deno, Bun and edge workers.
 */
export { createSessionHandler } from './session/handler.js';
export type { SessionHandler } from './session/handler.js';
export type { AccessToken, SessionHandlerOptions } from './session/options.js';
export type { ClientAddress } from './session/client-address.js';
export type { SessionEvent, SessionEventListener } from './session/events.js';
export type { OrderSummary } from './session/outcomes.js';
export { OrderError, RateLimitError } from './order.js';
export type {
  BeforeInitiate,
  BeforeInitiateContext,
  Order,
  OrderContext,
  OrderErrorOptions,
  OrderResolver,
  RateLimitErrorOptions,
  ResolvedOrder,
} from './order.js';
export { createStatusHandler } from './status/handler.js';
export type { StatusEvent, StatusHandlerOptions, StatusLookup, StatusLookupContext } from './status/handler.js';
export type { StatusSecret } from './status/tokens.js';
export { createMemoryIdempotencyStore, createMemoryPaymentStore, isValidIdempotencyKey } from './stores.js';
export type {
  IdempotencyRecord,
  IdempotencyStore,
  MemoryIdempotencyStoreOptions,
  MemoryPaymentStoreOptions,
  Payment,
  PaymentState,
  PaymentStore,
  StoredReply,
} from './stores.js';
export { ERROR_STATUS } from './http/reply.js';
export type { AllowedOrigins, CorsOptions } from './http/cors.js';
export type { ErrorCode, FieldErrors } from './http/reply.js';
export { INITIATE_PATH } from '../wire/gateway-paths.js';
export type { SessionRequest, StatusResponse, GatewayRequest, ErrorBody } from '../schemas.js';
export { createGateway, paymentStateOf } from './gateway.js';
export type {
  Gateway,
  GatewayOptions,
  CallOptions,
  InitiateOutcome,
  QueryOutcome,
  QueryAnswer,
  QueryUnverified,
  TokenFailure,
} from './gateway.js';
export type { QueryVersion } from '../wire/gateway-paths.js';
export { createWebhookHandler } from './webhook.js';
export type { WebhookEvent, WebhookHandler, WebhookHandlerOptions } from './webhook.js';
export type { PaymentHook, SettleEvent } from './settle.js';
