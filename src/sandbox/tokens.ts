/**
 * `POST /api/v2/encrypt/keys` (docs/architecture.md, "The token call"): the dashboard's keys, joined secret
 * first, buy a bearer token in the gateway's shape. The real gateway publishes no lifetime; the
 * sandbox's tokens expire after `ttlMs`, so a client's renewal on a 401 can be rehearsed.
 */
export type SandboxTokens = {
  /** A fresh token for `key`, or undefined when `key` is not `SECRET.PUBLIC`. */
  issue(key: unknown): string | undefined;
  /** Whether `token` is the fixed access token or an issued one that has not expired. */
  accepts(token: string | undefined): boolean;
};

export function createSandboxTokens(options: {
  secretKey: string;
  publicKey: string;
  accessToken: string;
  ttlMs: number;
  now: () => number;
}): SandboxTokens {
  const expiries = new Map<string, number>();

  function forgetExpired(): void {
    const now = options.now();
    for (const [token, expiresAt] of expiries) if (expiresAt <= now) expiries.delete(token);
  }

  return {
    issue(key) {
      if (key !== `${options.secretKey}.${options.publicKey}`) return undefined;
      forgetExpired();
      const token = randomToken();
      expiries.set(token, options.now() + options.ttlMs);
      return token;
    },
    accepts(token) {
      if (token === undefined) return false;
      if (token === options.accessToken) return true;
      const expiresAt = expiries.get(token);
      return expiresAt !== undefined && expiresAt > options.now();
    },
  };
}

/** Opaque and base64-looking, with `+` and `/`, like the gateway's. */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(48));
  return btoa(String.fromCharCode(...bytes));
}
