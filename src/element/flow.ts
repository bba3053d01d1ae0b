// The payment flow as a pure state machine: no Lit, no DOM, no I/O. Every state past the form keeps
// the request it was started with (one resumed after a reload, only its type and bank), and once
// initiated the server's `order` (what it charges, when it said so): what the result screens show
// is what was sent and charged, not what the page's properties say now.
//
//   form ─submit─► submitting ─initiated─► ussd | transfer ─completed─► complete
//                      │  ▲
//                   failed retry
//                      ▼  │
//                     error ─edit─► form
//
// `reset` returns to the form from anywhere; `resumed` leaves it for the screen of an attempt kept
// from before a reload, whose account's time left `timed` reads again against the server's
// clock. An event that does not apply to the current state is
// ignored (the same state object comes back), which is what makes a double submit harmless.
import type { PayErrorCode } from './events.js';
import type { Messages } from './messages/index.js';
import type { PaymentStatus, PaymentType, StatusReview } from '../contract/rules.js';
import type {
  Instructions,
  Order,
  SessionRequest,
  TransferInstructions,
  UssdInstructions,
} from '../contract/schemas.js';

export type PayFailure = {
  code: PayErrorCode;
  /** What the session endpoint or gateway said: shown beside our own explanation only when `says` is absent. */
  message: string | undefined;
  /** Our own words for the server's error code, when the widget knows the code: shown instead of `message`. */
  says?: keyof Messages | undefined;
  retryable: boolean;
  /** Field name → the server's message, when the session endpoint rejected specific fields. */
  fields?: Record<string, string> | undefined;
};

/**
 * The request of an attempt resumed after a reload: its payment type and bank, never the customer's details
 * (kept-attempt.ts).
 */
export type KeptRequest = { paymentType: PaymentType; bankCode?: string | undefined };

export type FlowState =
  | { kind: 'form' }
  | { kind: 'submitting'; request: SessionRequest }
  | { kind: 'ussd'; request: SessionRequest | KeptRequest; instructions: UssdInstructions; order: Order | undefined }
  | {
      kind: 'transfer';
      request: SessionRequest | KeptRequest;
      instructions: TransferInstructions;
      order: Order | undefined;
    }
  | {
      kind: 'complete';
      request: SessionRequest | KeptRequest;
      instructions: Instructions;
      order: Order | undefined;
      /** PENDING only with a `review`: neither paid nor failed, for a person at the shop to settle. */
      status: PaymentStatus;
      message: string | undefined;
      review?: StatusReview | undefined;
    }
  | { kind: 'error'; request: SessionRequest; failure: PayFailure };

/** The state of one kind, e.g. `StateOf<'ussd'>`. */
export type StateOf<K extends FlowState['kind']> = Extract<FlowState, { kind: K }>;

export type FlowEvent =
  | { type: 'submit'; request: SessionRequest }
  | { type: 'initiated'; instructions: Instructions; order: Order | undefined }
  | { type: 'failed'; failure: PayFailure }
  | { type: 'retry' }
  | { type: 'edit' }
  | { type: 'completed'; status: PaymentStatus; message: string | undefined; review?: StatusReview | undefined }
  | { type: 'reset' }
  /** An attempt kept from before a reload (resume.ts), shown again from the form. */
  | { type: 'resumed'; state: FlowState }
  /** A resumed transfer's order, its time left read again against the server's clock (resume.ts). */
  | { type: 'timed'; order: Order | undefined };

export const initialState: FlowState = { kind: 'form' };

export function transition(state: FlowState, event: FlowEvent): FlowState {
  switch (event.type) {
    case 'submit':
      return state.kind === 'form' ? { kind: 'submitting', request: event.request } : state;
    case 'initiated':
      if (state.kind !== 'submitting') return state;
      // The instructions' payment type names the screen, as resume.ts's resumedState() reads it.
      return {
        kind: event.instructions.paymentType === 'USSD' ? 'ussd' : 'transfer',
        request: state.request,
        instructions: event.instructions,
        order: event.order,
      } as StateOf<'ussd' | 'transfer'>;
    case 'failed':
      return state.kind === 'submitting' ? { kind: 'error', request: state.request, failure: event.failure } : state;
    case 'retry':
      return state.kind === 'error' && state.failure.retryable ? { kind: 'submitting', request: state.request } : state;
    case 'edit':
      return state.kind === 'error' ? initialState : state;
    case 'completed':
      return state.kind === 'ussd' || state.kind === 'transfer'
        ? {
            ...state,
            kind: 'complete',
            status: event.status,
            message: event.message,
            ...(event.review ? { review: event.review } : {}),
          }
        : state;
    case 'reset':
      return state.kind === 'form' ? state : initialState;
    case 'resumed':
      return state.kind === 'form' ? event.state : state;
    case 'timed':
      return state.kind === 'transfer' ? { ...state, order: event.order } : state;
  }
}

/** The payment reference, once the gateway has given one. */
export function paymentReferenceOf(state: FlowState): string | undefined {
  return 'instructions' in state ? state.instructions.paymentReference : undefined;
}
