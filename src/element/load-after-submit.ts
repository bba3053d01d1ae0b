// Loads what runs after a submit (after-submit.ts) once for the page, and early: when the page is
// idle or when a customer first focuses a field of a widget, whichever comes first, so that it is
// there long before Pay is pressed. A submit that comes sooner waits for the same load.
import type * as AfterSubmit from './after-submit.js';
import { importAfterSubmit } from './import-after-submit.js';

export type AfterSubmitModule = typeof AfterSubmit;

/** The latest an idle page starts the load: `requestIdleCallback`'s timeout, or the delay where it is missing (Safari). */
const PREFETCH_AT_LATEST_MS = 2_000;

let loaded: AfterSubmitModule | undefined;
let loading: Promise<AfterSubmitModule> | undefined;
let attempts = 0;
let arrived: (module: AfterSubmitModule) => void;

/** Resolves once the module has loaded (it never starts the load). */
export const afterSubmitArrived = new Promise<AfterSubmitModule>((resolve) => (arrived = resolve));

/** The module, once it has loaded: every state past a successful initiation can count on it. */
export const afterSubmit = (): AfterSubmitModule | undefined => loaded;

/** The module, loading it unless a load is under way; after a failed load the next call tries afresh. */
export function loadAfterSubmit(): Promise<AfterSubmitModule> {
  if (loaded) return Promise.resolve(loaded);
  const load = (loading ??= importAfterSubmit(attempts++).then(
    (module) => (arrived(module), (loaded = module)),
    (error: unknown) => {
      if (loading === load) loading = undefined;
      throw error;
    },
  ));
  return load;
}

/**
 * As `loadAfterSubmit`, but rejects after `timeoutMs`; a load that hangs is then forgotten, so that
 * Try again asks for the file afresh.
 */
export function loadAfterSubmitWithin(timeoutMs: number): Promise<AfterSubmitModule> {
  if (loaded) return Promise.resolve(loaded);
  const load = loadAfterSubmit();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (loading === load) loading = undefined;
      reject(new Error('timeout'));
    }, timeoutMs);
  });
  return Promise.race([load, hung]).finally(() => clearTimeout(timer));
}

/** Starts the load when the page is idle or a field in `host` is focused; returns what cancels that. */
export function prefetchAfterSubmit(host: HTMLElement): () => void {
  if (loaded) return () => {};
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
