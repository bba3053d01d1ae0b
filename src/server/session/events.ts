// What the session endpoint tells `onEvent`: one type per decision, never a secret.
import type { PaymentType } from '../../schemas.js';
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
  | { type: 'rate-limited'; retryAfterSeconds: number }
  | { type: 'initiated'; paymentReference: string; paymentType: PaymentType; amount: string; currency: string }
  | {
      type: 'internal-error';
      /**
       * `deadline`: the attempt as a whole ran past `attemptTimeoutMs`; `detail` says where it was.
       * `config`: the order's callbackUrl or redirectUrl is not https: (nothing was forwarded).
       * `ledger`: recording an initiated payment failed (the customer still got the instructions).
       */
      where: 'order' | 'config' | 'token' | 'store' | 'ledger' | 'beforeInitiate' | 'handler' | 'deadline';
      detail: string;
    };

export type SessionEventListener = (event: SessionEvent) => void | Promise<void>;

export type InternalWhere = Extract<SessionEvent, { type: 'internal-error' }>['where'];
