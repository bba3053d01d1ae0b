// The guarded `onEvent`: a logging hook never breaks a payment, and never hears a secret.
import { createRedactor, gatewayRedactor } from './redact.js';

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

/**
 * The guarded `onEvent` (see `createEmitter`), with every string in each event scrubbed of the
 * secrets the handler knows: everything a `createGateway` object knows (its keys and every token
 * it used, through its `redact`), the given `secrets`, and whatever follows `Bearer `. The gateway's
 * codes, currencies and messages, and a notification's fields, are text from outside that may
 * quote anything.
 */
export function scrubbedEmitter<Event>(
  listener: ((event: Event) => void | Promise<void>) | undefined,
  gateway: unknown,
  secrets: readonly unknown[] = [],
): (event: Event) => void {
  const emit = createEmitter(listener);
  if (!listener) return emit;
  const known = gateway as { publicKey?: unknown; redact?: unknown } | undefined;
  const strings = [known?.publicKey, ...secrets].filter((secret): secret is string => typeof secret === 'string');
  const redactor = createRedactor(strings, gatewayRedactor(gateway));
  const redact = (text: string) => redactor.text(text);
  return (event) => emit(scrubStrings(event, redact) as Event);
}

function scrubStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => scrubStrings(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubStrings(item, redact)]));
  }
  return value;
}
