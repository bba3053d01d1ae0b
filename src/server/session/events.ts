// What the session endpoint tells `onEvent`: one type per decision, never a secret.
import type { PaymentType } from '../../contract/schemas.js';
import type { FieldErrors } from '../http/reply.js';
import type { SessionOutcome } from './outcomes.js';

/**
 * What `onEvent` receives: enough to log and alert on. Never the access token or the public key;
 * the customer's e-mail, mobile number and full name are redacted from every `detail`, wherever a
 * gateway or an order resolver quoted them.
 */
export type SessionEvent =
  | { type: 'rejected'; status: number; code: string; fields?: FieldErrors }
  | {
      type: 'gateway';
      /**
       * The gateway's outcome; `foreign-reference`: instructions naming another paymentReference
       * (`detail` says which), answered 502 `invalid_gateway_response` and recorded nowhere.
       */
      outcome: SessionOutcome['kind'];
      paymentType: PaymentType;
      paymentReference: string;
      amount: string;
      currency: string;
      durationMs: number;
      httpStatus?: number;
      /** The gateway's message, or the network error code (`ECONNREFUSED`, …). */
      detail?: string;
    }
  | { type: 'replayed'; idempotencyKey: string; status: number }
  | {
      /**
       * The ledger already records this attempt's payment (its Idempotency-Key started it, or it
       * holds its reference): the gateway is asked about that payment again, and the order
       * resolver's `ignored` fields, which differed from the entry's, are not used.
       */
      type: 'replayed-from-ledger';
      paymentReference: string;
      ignored: ('paymentReference' | 'amount' | 'currency')[];
    }
  | { type: 'rate-limited'; retryAfterSeconds: number }
  | { type: 'initiated'; paymentReference: string; paymentType: PaymentType; amount: string; currency: string }
  | {
      type: 'internal-error';
      /**
       * `deadline`: the attempt as a whole ran past `attemptTimeoutMs`; `detail` says where it was.
       * `config`: the order's callbackUrl or redirectUrl is not https: (nothing was forwarded), or
       * the request's body was read before the handler got it (a body parser such as `express.json()`
       * mounted first: mount the handler before it).
       * `ledger`: the ledger could not be read or written before the gateway was asked (answered
       * 503 `server_busy`, nothing started), or recording the gateway's answer failed (the customer
       * still got it; the entry stays due for the reconciler).
       */
      where: 'order' | 'config' | 'token' | 'store' | 'ledger' | 'beforeInitiate' | 'handler' | 'deadline';
      detail: string;
    };

export type SessionEventListener = (event: SessionEvent) => void | Promise<void>;

export type InternalWhere = Extract<SessionEvent, { type: 'internal-error' }>['where'];
