// Loads, once for the page, the files a payment needs besides the form: what runs after a submit
// (after-submit.ts), early (when the page is idle or a customer first focuses a field of a widget,
// whichever comes first, so that it is there long before Pay is pressed), and the transfer screen
// (transfer-screen.ts), which a USSD payment never loads, once a customer chooses a transfer. A
// submit that comes sooner waits for the same loads.
import type * as AfterSubmit from './after-submit.js';
import type { PaymentType } from '../contract/rules.js';
import { importAfterSubmit, importTransferScreen } from './import-on-demand.js';
import type * as TransferScreen from './transfer-screen.js';

export type AfterSubmitModule = typeof AfterSubmit;
export type TransferScreenModule = typeof TransferScreen;

/** The latest an idle page starts the load: `requestIdleCallback`'s timeout, or the delay where it is missing (Safari). */
const PREFETCH_AT_LATEST_MS = 2_000;

/** A file loaded on demand: `load` loads it unless a load is under way; after a failed or forgotten load the next call tries afresh. */
type OnDemand<T> = {
  /** Resolves once the file has loaded (it never starts the load). */
  arrived: Promise<T>;
  /** The module, once it has loaded. */
  loaded: () => T | undefined;
  load: () => Promise<T>;
  /** Forgets the load under way (one that hangs), so that the next call asks afresh. */
  forget: () => void;
};

function onDemand<T>(importer: (attempt: number) => Promise<T>): OnDemand<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  let attempts = 0;
  let arrive: (module: T) => void;
  // A load that fails or hangs is forgotten. (Should one forgotten for hanging fail later, the load after it is
  // forgotten too: one more import, no harm.)
  const forget = () => (loading = undefined);
  return {
    arrived: new Promise<T>((resolve) => (arrive = resolve)),
    loaded: () => loaded,
    load() {
      if (loaded) return Promise.resolve(loaded);
      return (loading ??= importer(attempts++).then(
        (module) => (arrive(module), (loaded = module)),
        (error: unknown) => {
          forget();
          throw error;
        },
      ));
    },
    forget,
  };
}

const afterSubmitFile = onDemand(importAfterSubmit);
const transferScreenFile = onDemand(importTransferScreen);

export const afterSubmitArrived = afterSubmitFile.arrived;
/** What runs after a submit, once it has loaded: every state past a successful initiation can count on it. */
export const afterSubmit = afterSubmitFile.loaded;
export const loadAfterSubmit = afterSubmitFile.load;

/** Both files a transfer's screen needs, once they have loaded. */
export const transferScreenArrived = Promise.all([afterSubmitArrived, transferScreenFile.arrived]);
/** The transfer screen, once it has loaded: a transfer's states can count on it. */
export const transferScreen = transferScreenFile.loaded;
export const loadTransferScreen = transferScreenFile.load;

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
  const loads = [afterSubmitFile.load(), paymentType === 'TRANSFER' && transferScreenFile.load()] as const;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      afterSubmitFile.forget();
      transferScreenFile.forget();
      reject(new Error('timeout'));
    }, timeoutMs);
  });
  return Promise.race([Promise.all(loads).then(([module]) => module), hung]).finally(() => clearTimeout(timer));
}

/** Starts the load of what runs after a submit when the page is idle or a field in `host` is focused; returns what cancels that. */
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

/** Starts the load of the transfer screen, once for the page: a failed one is left to the submit, which loads again and says so if that fails. */
export const prefetchTransferScreen = () => (transferPrefetch ??= loadTransferScreen().catch(() => {}));
