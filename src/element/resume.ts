// Resume after a reload, a discarded tab or an app switch: the payment controller keeps the attempt
// it is at (kept-attempt.ts) when the gateway gives instructions and when `status-url` says how it
// ended, and a widget for the same page, `session-url` and hints shows it again at once: the same
// dial code or account, the countdown where it was, the status asked now, `pay-resumed` fired. No
// session request is sent: it is the same payment. Part of what runs after a submit.
import type { FlowState } from './flow.js';
import { keepAttempt, recallAttempt, type KeptAttempt, type KeptScreen } from './kept-attempt.js';
import { timeLeftOf } from './countdown.js';

/** What resumes: the payment controller, which shows a state only from its form. */
export type Resumable = { resumed(state: KeptScreen, key: string): void };

/** Keeps the screen `state` shows under `name` (the instructions when they come, how it ended once it has). */
export function keepFlow(name: string, state: FlowState, key: string): void {
  if (!('instructions' in state)) return;
  const left = timeLeftOf(state.order);
  const now = Date.now();
  keepAttempt(name, { v: 1, key, state, runsOutAt: left === undefined ? undefined : now + left, keptAt: now });
}

/** The screen a kept attempt shows again, its countdown where it was (`expiresInMs` as left now). */
export function resumedState({ state, runsOutAt }: KeptAttempt, now = Date.now()): KeptScreen {
  const { order } = state;
  return order && runsOutAt !== undefined ? { ...state, order: { ...order, expiresInMs: Math.max(0, runsOutAt - now) } } : state;
}

/**
 * Shows the attempt kept under `name` again (the payment controller fires `pay-resumed`), when there
 * is one and the widget still shows its form. A transfer's screen is a file of its own: the form
 * stays until `loadTransferScreen` has brought it (and stays if it cannot), and the attempt is read
 * again then, in case a reset() forgot it meanwhile.
 */
export async function resumeKept(payment: Resumable, name: string, loadTransferScreen: () => Promise<unknown>): Promise<void> {
  let kept = recallAttempt(name);
  if (kept?.state.kind === 'transfer') {
    try {
      await loadTransferScreen();
    } catch {
      return;
    }
    kept = recallAttempt(name);
  }
  if (kept) payment.resumed(resumedState(kept), kept.key);
}
