/**
 * `pay-widget/server`: the merchant's session endpoint and status endpoint, as Fetch-API handlers.
 * Never imports Lit; runs on Node 20+, Deno, Bun and edge workers.
 */
export { createSessionHandler } from './session/handler.js';
export type { SessionHandler } from './session/handler.js';
export type { AccessToken, SessionHandlerOptions } from './session/options.js';
export { addressHeader, forwardedFor } from './session/client-address.js';
export type { ClientAddress, ForwardedForOptions } from './session/client-address.js';
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
export { createMemoryIdempotencyStore, createMemoryPaymentStore } from './stores/memory.js';
export { isValidIdempotencyKey } from './stores/types.js';
export type { MemoryIdempotencyStoreOptions, MemoryPaymentStoreOptions } from './stores/memory.js';
export type {
  IdempotencyRecord,
  IdempotencyStore,
  FulfilmentLease,
  Initiation,
  Payment,
  PaymentReview,
  PaymentState,
  PaymentStore,
  StoredReply,
} from './stores/types.js';
export { ERROR_STATUS } from './http/reply.js';
export type { AllowedOrigins, CorsOptions } from './http/cors.js';
export type { ErrorCode, FieldErrors } from './http/reply.js';
export { INITIATE_PATH } from '../contract/gateway-paths.js';
export type { SessionRequest, StatusResponse, GatewayRequest, ErrorBody } from '../contract/schemas.js';
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
export type { QueryVersion } from '../contract/gateway-paths.js';
export { createWebhookHandler } from './webhook/handler.js';
export type { WebhookEvent } from './webhook/events.js';
export type { WebhookHandler, WebhookHandlerOptions } from './webhook/handler.js';
export type { PaidContext, PaymentHook, SettleEvent } from './settle.js';
export { createReconciler } from './reconciler.js';
export type { ReconcileCounts, ReconcileEvent, Reconciler, ReconcilerOptions } from './reconciler.js';
