type Sha256Hex = (text: string) => string;

/**
 * Node, Bun and Deno hash synchronously through `node:crypto`, reached with
 * `process.getBuiltinModule` (Node ≥ 20.16) so that nothing imports `node:` and edge bundles still
 * build. `crypto.subtle.digest` is the fallback: it gives the same digest, but in Node it runs on
 * the thread pool, a round trip that cost ~0.3 ms per request when the machine is otherwise idle.
 */
const sha256Hex: Sha256Hex | undefined = (() => {
  try {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const nodeCrypto = process?.getBuiltinModule?.('node:crypto') as
      | { createHash?: (algorithm: string) => { update(data: string, encoding: 'utf8'): { digest(encoding: 'hex'): string } } }
      | undefined;
    const createHash = nodeCrypto?.createHash;
    if (typeof createHash !== 'function') return undefined;
    return (text) => createHash('sha256').update(text, 'utf8').digest('hex');
  } catch {
    return undefined;
  }
})();

/**
 * The paymentReference sent when the order resolver gives none: derived from the Idempotency-Key, so
 * every attempt for one key, even one whose stored record was lost, names the same payment to the
 * gateway. `pw-` and 32 hex digits (128 bits of SHA-256). Synchronous where the runtime allows it.
 */
export function referenceForKey(key: string): string | Promise<string> {
  if (sha256Hex) return `pw-${sha256Hex(key).slice(0, 32)}`;
  return subtleReferenceForKey(key);
}

/** The same reference through Web Crypto, for runtimes without `node:crypto`. */
export async function subtleReferenceForKey(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  let hex = '';
  for (const byte of digest.subarray(0, 16)) hex += byte.toString(16).padStart(2, '0');
  return `pw-${hex}`;
}

/** For a request without an Idempotency-Key (only when `requireIdempotencyKey` is false). */
export function randomReference(): string {
  return `pw-${crypto.randomUUID()}`;
}
