// The one deadline helper of every endpoint, its abort flag, and an abortable sleep.

/**
 * A one-shot abort flag with listeners, for a deadline (see {@link withDeadline}). `signal` turns it
 * into an `AbortSignal` for `fetch` and the merchant's own calls, made only when one is asked for.
 */
export class AbortFlag {
  #aborted = false;
  #listeners: (() => void)[] | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Aborts with the flag; its reason is a `TimeoutError`, as for `AbortSignal.timeout`. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = (this.#controller = new AbortController());
      this.onAbort(() => controller.abort(new DOMException('The deadline passed.', 'TimeoutError')));
    }
    return this.#controller.signal;
  }

  /** Calls `listener` once when aborted (at once if already); returns a function that unsubscribes it. */
  onAbort(listener: () => void): () => void {
    if (this.#aborted) {
      listener();
      return () => {};
    }
    (this.#listeners ??= []).push(listener);
    return () => {
      const index = this.#listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.#listeners!.splice(index, 1);
    };
  }

  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }
}

/** Resolves after `ms`; resolves early when `signal` aborts, so a waiting loop can notice. */
export function sleep(ms: number, signal?: AbortFlag): Promise<void> {
  return new Promise((resolve) => {
    let unsubscribe: (() => void) | undefined;
    const done = () => {
      clearTimeout(timer);
      unsubscribe?.();
      resolve();
    };
    const timer = setTimeout(done, ms);
    unsubscribe = signal?.onAbort(done);
  });
}

/**
 * Runs `work` with a flag that aborts after `ms`. If `work` has not settled by then, the answer is
 * `onTimeout()` (or what it throws), given at that moment; `work` is left to notice the flag and
 * stop. The one time-out of every endpoint: the attempt, the status lookup, the webhook's query.
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortFlag) => Promise<T>,
  onTimeout: () => T,
): Promise<T> {
  const flag = new AbortFlag();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      flag.abort();
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  try {
    return await Promise.race([work(flag), expired]);
  } finally {
    clearTimeout(timer);
  }
}
