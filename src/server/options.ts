// What the server's factories check of the stores they are given (the option checks they share
// with the sandbox are contract/option-checks.ts).

/**
 * Refuses, when a handler is created, a store that lacks a method: JavaScript callers can pass
 * anything, and a store without `claim` would let two instances pay for one key.
 */
export function assertStore(store: unknown, methods: readonly string[], what: string): void {
  const missing = methods.filter((name) => typeof (store as Record<string, unknown> | null)?.[name] !== 'function');
  if (missing.length > 0) throw new TypeError(`${what} lacks ${missing.map((name) => `${name}()`).join(', ')}`);
}
