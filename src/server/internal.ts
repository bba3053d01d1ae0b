// The per-endpoint factories createPayments builds its handler from, for this repository's tests
// and tools only: a shop mounts createPayments (pay-widget/server), which declares each option once.
export * from './index.js';
export { createSessionHandler } from './session/handler.js';
export type { SessionHandler } from './session/handler.js';
export type { SessionHandlerOptions } from './session/options.js';
export type { SessionEventListener } from './session/events.js';
export { createStatusHandler } from './status/handler.js';
export type { StatusHandlerOptions, StatusLookup, StatusLookupContext } from './status/handler.js';
export { createWebhookHandler } from './webhook/handler.js';
export type { WebhookHandler, WebhookHandlerOptions } from './webhook/handler.js';
export { createReconciler } from './reconciler/reconciler.js';
export type { Reconciler, ReconcilerOptions } from './reconciler/reconciler.js';
