// Resume after a reload, a discarded tab or an app switch: the payment controller keeps the attempt
// it is at (kept-attempt.ts) when the gateway gives instructions, and a widget for the same page,
// `session-url`, hints and place on the page shows it again at once: the same dial code or account,
// the countdown where it was, the status asked now (how it ended, if it did, is the server's to
// say), `pay-resumed` fired. No session request is sent: it is the same payment. A file of its
// own (loading/entries/resume.ts), loaded only after a reload that kept an attempt.
import { recallAttempt, type KeptAttempt, type KeptScreen } from './kept-attempt.js';
import { timeLeftOf } from './countdown.js';

/** What resumes: the payment controller, which shows a state only from its form. */
export type Resumable = { resumed(state: KeptScreen, key: string): void };

/** The screen a kept attempt shows again, its countdown where it was (`expiresInMs` as left now). */
export function resumedState({ request, instructions, order, keptAt }: KeptAttempt, now = Date.now()): KeptScreen {
  const left = timeLeftOf(order);
  const kind = instructions.paymentType === 'USSD' ? 'ussd' : 'transfer';
  return {
    kind,
    request,
    instructions,
    order: left === undefined ? order : { ...order!, expiresInMs: Math.max(0, left - (now - keptAt)) },
  } as KeptScreen;
}

/**
 * Shows the attempt kept under `name` again (the payment controller fires `pay-resumed`), when there
 * is one and the widget still shows its form. A transfer's screen is a file of its own: the form
 * stays until `loadTransferScreen` has brought it (and stays if it cannot), and the attempt is read
 * again then, in case a reset() forgot it meanwhile.
 */
export async function resumeKept(
  payment: Resumable,
  name: string,
  loadTransferScreen: () => Promise<unknown>,
): Promise<void> {
  let kept = recallAttempt(name);
  if (kept?.instructions.paymentType === 'TRANSFER') {
    try {
      await loadTransferScreen();
    } catch {
      return;
    }
    kept = recallAttempt(name);
  }
  if (kept) payment.resumed(resumedState(kept), kept.key);
}
