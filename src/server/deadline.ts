/**
 * A one-shot abort flag with listeners, for the attempt's deadline. An `AbortController` would do,
 * but in Node 20 each one costs ~5 µs and each listener on its signal a few more, per request; this
 * costs next to nothing. The gateway call turns it into a real `AbortSignal` for `fetch` with the
 * one controller it already needs for its own time-out.
 */
export class AbortFlag {
  #aborted = false;
  #listeners: (() => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
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
 * `onTimeout()`, given at that moment; `work` is left to notice the flag and stop.
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortFlag) => Promise<T>,
  onTimeout: () => T,
): Promise<T> {
  const flag = new AbortFlag();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      flag.abort();
      resolve(onTimeout());
    }, ms);
  });
  try {
    return await Promise.race([work(flag), expired]);
  } finally {
    clearTimeout(timer);
  }
}
