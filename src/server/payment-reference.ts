/**
 * The paymentReference sent when the order resolver gives none: derived from the Idempotency-Key, so
 * every attempt for one key, even one whose stored record was lost, names the same payment to the
 * gateway. `pw-` and 32 hex digits (128 bits of SHA-256).
 */
export async function referenceForKey(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return `pw-${hex}`;
}

/** For a request without an Idempotency-Key (only when `requireIdempotencyKey` is false). */
export function randomReference(): string {
  return `pw-${crypto.randomUUID()}`;
}
