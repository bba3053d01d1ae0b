// What the webhook handler tells `onEvent`: references, codes and amounts, never a token, key or
// customer detail (every string is scrubbed before it is reported).
import type { VerifyEvent } from '../settlement/settle.js';
import type { Payment } from '../stores/types.js';

export type WebhookEvent =
  | {
      type: 'webhook-rejected';
      status: number;
      reason: 'method' | 'content-type' | 'too-large' | 'slow-body' | 'malformed';
    }
  /**
   * No candidate reference names a ledger entry, and the gateway did not confirm it paid
   * (`unknown-reference`: answered as the gateway's verdict says); or the gateway was not asked,
   * whether the ledger holds the reference or not, because the request's or the second's queries
   * were spent (`query-limit`: answered 503). `reference` is the one that would have been asked
   * about: the entry's, or the first candidate shaped like a payment reference, if any.
   */
  | {
      type: 'webhook-ignored';
      reason: 'unknown-reference' | 'query-limit';
      eventType: string | undefined;
      reference: string | undefined;
    }
  /**
   * Money arrived for nothing the ledger knows: the gateway confirms `paymentReference` paid, for the
   * gateway's amount and currency. Answered 200; for a person to look at (a refund, or a lost entry).
   */
  | { type: 'unmatched-payment'; paymentReference: string; amount: number | undefined; currency: string | undefined }
  | { type: 'already-settled'; paymentReference: string; state: Payment['state'] }
  | VerifyEvent;
