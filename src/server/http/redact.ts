// Scrubbing secrets (keys, tokens, customer details) from text that leaves a handler.

const REDACTED = '[redacted]';

/** How many tokens from a rotating token source are remembered, newest kept. */
export const MAX_REMEMBERED_TOKENS = 16;

/**
 * `Bearer <token>`, also URL-encoded (`Bearer%20…`, `Bearer+…`) and with JSON's `\/`: catches a
 * token the redactor never saw, or one it has since forgotten.
 */
const BEARER = /(Bearer(?:\s|%20|\+)+)(?:[\w.~+/=-]|\\\/|%[0-9A-Fa-f]{2})+/gi;

/**
 * Removes secrets from text that leaves the handler (gateway messages and envelopes, error names
 * for `onEvent`): each secret as written, JSON-escaped (with and without `\/`), URL-encoded, and
 * whatever follows `Bearer `. The public key and a fixed token are always known; tokens from a
 * rotating source are added as they are used, the last {@link MAX_REMEMBERED_TOKENS} kept.
 */
export type Redactor = {
  /** Remembers a token from a rotating source. */
  add(token: string): void;
  /** `value` with every known secret, and each of `extra` (this request's customer details), replaced. */
  text(value: string, extra?: readonly string[]): string;
  /** `text` with a fixed `extra`, whose encodings are worked out once, on first use. */
  withExtra(extra: readonly string[]): (value: string) => string;
};

/**
 * `alsoKnown` is a second redactor run first: a `createGateway` object's `redact`, which knows its
 * secret key and every token it used, secrets a handler given only the object never sees.
 */
export function createRedactor(permanent: readonly string[], alsoKnown?: (text: string) => string): Redactor {
  const known = new Set(permanent.filter((secret) => secret.length > 0));
  const fixed = [...known].map(encodings);
  // A Map keeps insertion order: the first key is the token used longest ago.
  const tokens = new Map<string, string[]>();

  function withExtra(extra: readonly string[]): (value: string) => string {
    // Worked out on first use, after the request's deadline is set: most requests redact nothing.
    let extraForms: string[][] | undefined;
    return (value) => {
      extraForms ??= extra.filter((secret) => secret.length > 0).map(encodings);
      let result = redactKnown(value);
      for (const forms of extraForms) result = replaceAll(result, forms);
      return result;
    };
  }

  return {
    add(token) {
      if (token.length === 0 || known.has(token)) return;
      const forms = tokens.get(token);
      tokens.delete(token);
      tokens.set(token, forms ?? encodings(token));
      if (forms) return;
      if (tokens.size > MAX_REMEMBERED_TOKENS) tokens.delete(tokens.keys().next().value!);
    },
    text: (value, extra = []) => (extra.length ? withExtra(extra)(value) : redactKnown(value)),
    withExtra,
  };

  /** The Bearer pattern, then each permanent secret, then each remembered token, in that order. */
  function redactKnown(value: string): string {
    let result = (alsoKnown ? alsoKnown(value) : value).replace(BEARER, `$1${REDACTED}`);
    for (const forms of fixed) result = replaceAll(result, forms);
    for (const forms of tokens.values()) result = replaceAll(result, forms);
    return result;
  }
}

/** The ways a secret gets written into JSON, URLs and form bodies, longest first. */
function encodings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const uri = encodeURIComponent(secret);
  const forms = [
    secret,
    json,
    json.replaceAll('/', '\\/'),
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    new URLSearchParams({ s: secret }).toString().slice(2),
  ];
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

function replaceAll(text: string, forms: readonly string[]): string {
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
  return result;
}

/** A `createGateway` object's own `redact` (its keys and tokens), when the object has one. */
export function gatewayRedactor(gateway: unknown): ((text: string) => string) | undefined {
  const redact = (gateway as { redact?: unknown } | undefined)?.redact;
  return typeof redact === 'function' ? (text) => String(redact.call(gateway, text)) : undefined;
}
