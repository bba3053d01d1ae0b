// `order.statusToken`: proof that whoever polls `status-url` for a reference got it from the session
// endpoint, so references (often order numbers) cannot be enumerated. An HMAC-SHA256 over the
// reference and an expiry, through WebCrypto so that edge runtimes work:
//
//   <expiry, seconds since the epoch>.<base64url HMAC of "<reference>\n<expiry>">

/** At least 32 bytes: a string (counted as UTF-8) or raw bytes. */
export type StatusSecret = string | Uint8Array;

export type StatusTokens = {
  sign(paymentReference: string): Promise<string>;
  /** False for a missing, malformed, forged or expired token. */
  verify(paymentReference: string, token: string | null): Promise<boolean>;
};

const MIN_SECRET_BYTES = 32;
/** How long a token works by default: a customer may keep the page open for a day. */
const DEFAULT_STATUS_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
const encoder = new TextEncoder();

/** Refuses a missing or short secret with a TypeError that says what to pass; `who` names the caller. */
function secretBytes(secret: unknown, who: string): Uint8Array<ArrayBuffer> {
  const bytes =
    typeof secret === 'string'
      ? encoder.encode(secret)
      : secret instanceof Uint8Array
        ? new Uint8Array(secret)
        : undefined;
  if (!bytes || bytes.byteLength < MIN_SECRET_BYTES) {
    throw new TypeError(
      `${who}: pass statusSecret, a random secret of at least ${MIN_SECRET_BYTES} bytes kept in your configuration ` +
        `(e.g. the output of \`openssl rand -base64 32\`), the same one to the session and status handlers` +
        (bytes ? ` (the one given has ${bytes.byteLength} bytes)` : ''),
    );
  }
  return bytes;
}

/** Signs and checks status tokens with `secret`; `who` names the caller in the TypeError for a short secret. */
export function createStatusTokens(
  secret: StatusSecret,
  options: { ttlMs?: number; now?: () => number; who: string },
): StatusTokens {
  const bytes = secretBytes(secret, options.who);
  const ttlMs = options.ttlMs ?? DEFAULT_STATUS_TOKEN_TTL_MS;
  const now = options.now ?? Date.now;
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = () =>
    (key ??= crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  const signed = (paymentReference: string, expiry: string) => encoder.encode(`${paymentReference}\n${expiry}`);

  return {
    async sign(paymentReference) {
      const expiry = String(Math.ceil((now() + ttlMs) / 1000));
      const mac = await crypto.subtle.sign('HMAC', await hmacKey(), signed(paymentReference, expiry));
      return `${expiry}.${base64url(new Uint8Array(mac))}`;
    },
    async verify(paymentReference, token) {
      const match = token === null ? null : TOKEN.exec(token);
      if (!match) return false;
      const [, expiry, mac] = match as unknown as [string, string, string];
      if (Number(expiry) * 1000 <= now()) return false;
      const macBytes = fromBase64url(mac);
      // 43 characters carry 258 bits for the MAC's 256: only the canonical spelling (unused bits
      // zero) is the token that was signed, so no other string is accepted for it.
      if (base64url(macBytes) !== mac) return false;
      // `verify` recomputes the HMAC and compares it in constant time (no early exit on a mismatch).
      return crypto.subtle.verify('HMAC', await hmacKey(), macBytes, signed(paymentReference, expiry));
    },
  };
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
