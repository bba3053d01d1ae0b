// The attempt kept in `sessionStorage` once the gateway gave its instructions, so that a reload, a
// discarded tab or an app switch can show it again (resume.ts): the idempotency key, the screen
// (the instructions, the server's order with its reference, amount, status token and expiry, once
// known how it ended, and the request it was started with: "Get a new account" sends it again, and
// the form, empty after a reload, gets its details back), and when the account runs out on the
// phone's clock. Kept for this tab only, and dropped with the attempt (reset(), a new payment) or
// once it is long over (recallAttempt). Storage that throws (blocked, private browsing, a full
// quota) keeps nothing and says nothing: the widget works as before, without resume. Part of what
// runs after a submit.
import type { FlowState } from './flow.js';
import { LEAST_POLLING_MS } from './status-poller.js';

/** A screen the attempt can show again: its instructions, and how it ended once `status-url` said. */
export type KeptScreen = Extract<FlowState, { instructions: unknown }>;

export type KeptAttempt = {
  /** This shape's version: a record of another (an older widget's, another script's) is dropped. */
  v: typeof VERSION;
  /** The attempt's `Idempotency-Key`. */
  key: string;
  /** The screen, with the request that started it. */
  state: KeptScreen;
  /** When the transfer account runs out, on the phone's clock (`Date.now()` + the server's time left when it arrived). */
  runsOutAt?: number | undefined;
  /** When it was kept, on the phone's clock. */
  keptAt: number;
};

const VERSION = 1;

const MINUTE = 60_000;

export function keepAttempt(name: string, attempt: KeptAttempt): void {
  try {
    sessionStorage.setItem(name, JSON.stringify(attempt));
  } catch {
    // Blocked (reading sessionStorage throws), refused or full: nothing is kept, and a reload shows the form as before.
  }
}

export function forgetAttempt(name: string): void {
  try {
    sessionStorage.removeItem(name);
  } catch {
    // Nothing could be kept either.
  }
}

/** The attempt kept under `name`, unless there is none, it is unreadable or it is long over (then it is dropped). */
export function recallAttempt(name: string, now = Date.now()): KeptAttempt | undefined {
  let kept: Partial<KeptAttempt> | null = null;
  try {
    const text = sessionStorage.getItem(name);
    if (!text) return undefined;
    kept = JSON.parse(text);
  } catch {
    // Unreadable (or storage refused): dropped below.
  }
  // Long over: past the least time its status is polled (a USSD code has no expiry) and 30 minutes
  // past its account's expiry. Without an expiry, `now - undefined` is NaN: never less.
  if (kept?.v === VERSION && (now - kept.keptAt! < LEAST_POLLING_MS || now - kept.runsOutAt! < 30 * MINUTE)) return kept as KeptAttempt;
  forgetAttempt(name);
  return undefined;
}
