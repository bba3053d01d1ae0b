/**
 * `pay-widget/server`: the server half as Fetch-API handlers. Never imports Lit; runs on Node 20+,
 * Deno, Bun and edge workers. `createPayments` is the one object a shop mounts; `toNodeHandler`
 * (from `pay-widget/server/node`) serves it from Node's `http`, Express or Fastify.
 */
export { createPayments } from './payments.js';
export type { Payments } from './payments.js';
export { createLedgerPage } from './ledger-page/page.js';
export type { LedgerPageOptions } from './ledger-page/page.js';
export type { HistoryEvent, HistoryWhat } from './ledger/history.js';
export type { LedgerQuery } from './ledger/queries.js';
export type {
  PaymentsEvent,
  PaymentsEventSource,
  PaymentsOptions,
  PaymentsOrder,
  PaymentsOrderResolver,
  PaymentsStores,
} from './payments-options.js';
export type { AccessToken } from './session/options.js';
export { addressHeader, forwardedFor } from './session/client-address.js';
export type { ClientAddress, ForwardedForOptions } from './session/client-address.js';
export type { SessionEvent } from './session/events.js';
export type { OrderSummary } from './session/outcomes.js';
export { OrderError, RateLimitError } from './session/order.js';
export type {
  BeforeInitiate,
  BeforeInitiateContext,
  Order,
  OrderContext,
  OrderErrorOptions,
  OrderResolver,
  RateLimitErrorOptions,
  ResolvedOrder,
} from './session/order.js';
export type { StatusSecret } from './status/tokens.js';
export { createMemoryIdempotencyStore, createMemoryPaymentStore, createMemoryStores } from './stores/memory.js';
export { isValidIdempotencyKey } from './stores/idempotency-types.js';
export type { MemoryIdempotencyStoreOptions, MemoryLedgerEvent, MemoryPaymentStoreOptions } from './stores/memory.js';
export type {
  FulfilmentLease,
  Initiation,
  Payment,
  PaymentReview,
  PaymentState,
  PaymentStore,
} from './stores/types.js';
export type { IdempotencyRecord, IdempotencyStore, StoredReply } from './stores/idempotency-types.js';
export { ERROR_STATUS } from './http/reply.js';
export type { AllowedOrigins, CorsOptions } from './http/cors.js';
export type { ErrorCode, FieldErrors } from './http/reply.js';
export { INITIATE_PATH } from '../contract/gateway-paths.js';
export type { SessionRequest, StatusResponse, GatewayRequest, ErrorBody } from '../contract/schemas.js';
export { createGateway, paymentStateOf } from './gateway/gateway.js';
export type {
  Gateway,
  GatewayOptions,
  CallOptions,
  InitiateOutcome,
  QueryOutcome,
  QueryAnswer,
  QueryUnverified,
  TokenFailure,
} from './gateway/gateway.js';
export type { QueryVersion } from '../contract/gateway-paths.js';
export type { WebhookEvent } from './webhook/events.js';
export type { PaidContext, PaymentHook, SettleEvent } from './settlement/settle.js';
export type { StatusEvent } from './status/handler.js';
export type { ReconcileCounts, ReconcileEvent } from './reconciler/reconciler.js';
