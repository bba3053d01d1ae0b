// The guarded `onEvent`: a logging hook never breaks a payment.

/** Only the error's class, for `onEvent`: a message may quote anything. */
export function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/** A logging hook must never break a payment or a settlement: its throws and rejections are swallowed. */
export function createEmitter<Event>(
  listener: ((event: Event) => void | Promise<void>) | undefined,
): (event: Event) => void {
  if (!listener) return () => {};
  return (event) => {
    try {
      const result = listener(event);
      if (result && typeof result.then === 'function') result.then(undefined, () => {});
    } catch {
      // ignored on purpose, see above
    }
  };
}
