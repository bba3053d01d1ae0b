// What the webhook handler tells `onEvent`: references, codes and amounts, never a token, key or
// customer detail (every string is scrubbed before it is reported).
import type { VerifyEvent } from '../settle.js';
import type { Payment } from '../stores/types.js';

export type WebhookEvent =
  | { type: 'webhook-rejected'; status: number; reason: 'method' | 'content-type' | 'too-large' | 'slow-body' | 'malformed' }
  /**
   * No candidate reference names a ledger entry: answered 200 so the gateway stops, and reported.
   * `reference` is the first candidate shaped like a payment reference, if any.
   */
  | { type: 'webhook-ignored'; reason: 'unknown-reference'; eventType: string | undefined; reference: string | undefined }
  | { type: 'already-settled'; paymentReference: string; state: Payment['state'] }
  | VerifyEvent;
