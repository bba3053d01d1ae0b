// The later files a payment needs, and when they are loaded (through load.ts): what runs after a
// submit, early (when the page is idle or a customer first focuses a field of a widget, whichever
// comes first, so that it is there long before Pay is pressed), and the transfer screen, which a USSD
// payment never loads, once a customer chooses a transfer. A submit that comes sooner waits for the
// same loads.
import type { PaymentType } from '../../contract/rules.js';
import { arrived, forget, load, loaded } from './load.js';
import type { LaterFiles } from './later-files.js';

export type AfterSubmitModule = LaterFiles['after-submit'];
export type TransferScreenModule = LaterFiles['transfer'];

/**
 * The latest an idle page starts the load: `requestIdleCallback`'s timeout, or the delay where it is missing (Safari).
 */
const PREFETCH_AT_LATEST_MS = 2_000;

export const afterSubmitArrived = arrived('after-submit');
/** What runs after a submit, once it has loaded: every state past a successful initiation can count on it. */
export const afterSubmit = () => loaded('after-submit');
export const loadAfterSubmit = () => load('after-submit');

/** Both files a transfer's screen needs, once they have loaded. */
export const transferScreenArrived = Promise.all([afterSubmitArrived, arrived('transfer')]);
/** The transfer screen, once it has loaded: a transfer's states can count on it. */
export const transferScreen = () => loaded('transfer');
export const loadTransferScreen = () => load('transfer');

/**
 * What a payment of `paymentType` needs before its request goes out (what runs after a submit and,
 * for a transfer, its screen): at once when it has loaded (no promise, so that the request can go
 * out in the same task as the click), else a promise of it that rejects after `timeoutMs`; a load
 * that hangs is then forgotten, so that Try again asks for the file afresh.
 */
export function loadForPayment(
  paymentType: PaymentType,
  timeoutMs: number,
): AfterSubmitModule | Promise<AfterSubmitModule> {
  const ready = afterSubmit();
  if (ready && (paymentType !== 'TRANSFER' || transferScreen())) return ready;
  const loads = [loadAfterSubmit(), paymentType === 'TRANSFER' && loadTransferScreen()] as const;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      forget('after-submit');
      forget('transfer');
      reject(new Error('timeout'));
    }, timeoutMs);
  });
  return Promise.race([Promise.all(loads).then(([module]) => module), hung]).finally(() => clearTimeout(timer));
}

/**
 * Starts the load of what runs after a submit when the page is idle or a field in `host` is focused; returns what
 * cancels that.
 */
export function prefetchAfterSubmit(host: HTMLElement): () => void {
  if (afterSubmit()) return () => {};
  function start() {
    stop();
    // A failed prefetch is not the customer's problem yet: a submit loads again, and says so if that fails.
    loadAfterSubmit().catch(() => {});
  }
  let cancelIdle: () => void;
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(start, { timeout: PREFETCH_AT_LATEST_MS });
    cancelIdle = () => cancelIdleCallback(id);
  } else {
    const id = setTimeout(start, PREFETCH_AT_LATEST_MS);
    cancelIdle = () => clearTimeout(id);
  }
  function stop() {
    cancelIdle();
    host.removeEventListener('focusin', start);
  }
  host.addEventListener('focusin', start);
  return stop;
}

let transferPrefetch: Promise<unknown> | undefined;

/**
 * Starts the load of the transfer screen, once for the page: a failed one is left to the submit, which loads again and
 * says so if that fails.
 */
export const prefetchTransferScreen = () => (transferPrefetch ??= loadTransferScreen().catch(() => {}));
