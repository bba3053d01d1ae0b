// `pay-widget check`'s options for what the merchant's page sends besides the widget's fields:
// `--header 'Name: value'`, `--reference REF` and `--body-extra JSON`, each read or refused with one
// line. A header's value is never repeated in that line: it is most often a session cookie.
import { PAYMENT_REFERENCE } from '../contract/rules.js';

export class UsageError extends Error {}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** No control character in a header value but a tab (a line break would start another header). */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** The headers the check sets itself, and why it does. */
const OWN_HEADERS: Record<string, string> = {
  host: 'it comes from the URL',
  'content-length': 'it comes from the body',
  'transfer-encoding': 'it comes from the body',
  connection: "the connection is the check's",
  'content-type': 'the check sends application/json (and other types on purpose in bad-input)',
  'idempotency-key': 'the check makes one per payment attempt, as the widget does',
  'x-expected-ack-reference': 'the check sends one with each notification it posts',
};

/** The session contract's own fields: the check sets them, and `--reference` sets paymentReference. */
const CONTRACT_FIELDS = [
  'paymentType',
  'fullName',
  'email',
  'mobileNumber',
  'bankCode',
  'amount',
  'currency',
  'country',
  'paymentReference',
];

/** `--header 'Cookie: cart=abc'` as a name and a value. */
export function readHeader(text: string): [name: string, value: string] {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  if (!HEADER_NAME.test(name))
    throw new UsageError(
      "--header must be 'Name: value' with a header name before the colon, like --header 'Cookie: cart=abc'",
    );
  const value = text.slice(colon + 1).trim();
  const own = OWN_HEADERS[name.toLowerCase()];
  if (own) throw new UsageError(`--header ${name} is set by the check (${own}): leave it out`);
  if (value === '') throw new UsageError(`--header ${name} has no value: --header '${name}: value'`);
  if (CONTROL.test(value))
    throw new UsageError(`--header ${name} has a line break or another control character in its value`);
  return [name, value];
}

/** `--reference`: a payment reference the widget's `payment-reference` could hold. */
export function readReference(text: string): string {
  if (!PAYMENT_REFERENCE.test(text)) {
    throw new UsageError(
      `--reference must be a payment reference: 1 to 128 letters, digits and . _ : / - (got ${JSON.stringify(text.slice(0, 140))})`,
    );
  }
  return text;
}

/** `--body-extra '{"cartId":"abc"}'`: a JSON object whose fields are not the contract's. */
export function readBodyExtra(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`--body-extra must be a JSON object, like '{"cartId":"abc"}' (it is not JSON)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(
      `--body-extra must be a JSON object, like '{"cartId":"abc"}' (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`})`,
    );
  }
  const taken = Object.keys(value).filter((field) => CONTRACT_FIELDS.includes(field));
  if (taken.length) {
    const hint = taken.includes('paymentReference') ? ' (use --reference for paymentReference)' : '';
    throw new UsageError(
      `--body-extra names ${taken.join(', ')}, which the check sets itself${hint}: give only your own fields`,
    );
  }
  return value as Record<string, unknown>;
}
