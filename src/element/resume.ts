// Resume after a reload, a discarded tab or an app switch: the payment controller keeps the attempt
// it is at (kept-attempt.ts) when the gateway gives instructions and when `status-url` says how it
// ended, and a widget for the same page, `session-url` and hints shows it again at once: the same
// dial code or account, the countdown where it was, the status asked now, `pay-resumed` fired. No
// session request is sent: it is the same payment. Part of what runs after a submit.
import { emit } from './events.js';
import type { FlowState } from './flow.js';
import { keepAttempt, recallAttempt, type KeptAttempt } from './kept-attempt.js';
import { timeLeftOf } from './wait-controller.js';
import type { Order, SessionRequest } from '../contract/schemas.js';

/** What resumes: the payment controller, which shows a state only from its form (and says whether it did). */
export type Resumable = { resumed(state: FlowState, key: string): boolean };

/** Keeps the attempt `state` is at under `name`: its instructions when they come, how it ended once it has. */
export function keepFlow(name: string, state: FlowState, key: string): void {
  if (state.kind === 'complete') {
    const kept = recallAttempt(name);
    if (kept?.instructions.paymentReference === state.instructions.paymentReference) {
      keepAttempt(name, { ...kept, status: state.status, message: state.message, review: state.review });
    }
    return;
  }
  if (state.kind !== 'ussd' && state.kind !== 'transfer') return;
  const { request, instructions, order } = state;
  const left = timeLeftOf(order);
  const now = Date.now();
  keepAttempt(name, {
    key,
    request: { paymentType: request.paymentType, bankCode: request.paymentType === 'USSD' ? request.bankCode : undefined },
    instructions,
    order,
    runsOutAt: left === undefined ? undefined : now + left,
    keptAt: now,
  });
}

/** The screen a kept attempt shows again, its countdown where it was (`expiresInMs` as left now). */
export function resumedState({ request, instructions, order, runsOutAt, status, message, review }: KeptAttempt, now = Date.now()): FlowState {
  const left = order && runsOutAt !== undefined ? { ...order, expiresInMs: Math.max(0, runsOutAt - now) } : order;
  const shown = { request: request as SessionRequest, order: left };
  if (status) return { kind: 'complete', ...shown, instructions, status, message, ...(review ? { review } : {}) };
  return instructions.paymentType === 'USSD' ? { kind: 'ussd', ...shown, instructions } : { kind: 'transfer', ...shown, instructions };
}

/** A resumed transfer's order, its time left read against the server's `now` (a status answer's) instead of the phone's clock. */
export function orderAt(order: Order | undefined, now: string): Order | undefined {
  return order?.expiresAt ? { ...order, expiresInMs: Math.max(0, Date.parse(order.expiresAt) - Date.parse(now)) } : order;
}

/** Shows the attempt kept under `name` again, when there is one and the widget still shows its form, and fires `pay-resumed`. */
export function resumeKept(payment: Resumable, host: HTMLElement, name: string): void {
  const kept = recallAttempt(name);
  if (!kept || !payment.resumed(resumedState(kept), kept.key)) return;
  const { instructions, order, status, review } = kept;
  emit(host, 'pay-resumed', {
    paymentType: instructions.paymentType,
    paymentReference: instructions.paymentReference,
    ...(order ? { amount: order.amount, currency: order.currency } : {}),
    ...(status ? { status, ...review } : {}),
  });
}
