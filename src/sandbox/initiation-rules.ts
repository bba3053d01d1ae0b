// Whether an initiation body is one the gateway accepts: a JSON object with the merchant's
// publicKey, the spec's fields (2.1) in the forms they name (an e-mail address, http(s) URLs for
// callbackUrl and redirectUrl, …) and its per-type rules (4.1 rules 1 and 2). A refusal is the
// gateway's: 400 `{ status: "ERROR", data: { code: "S12", message: "Invalid/Missing parameters = …" } }`
// (docs/architecture.md, "The initiation"), 403 for a wrong publicKey.
import { CUSTOMER_FIELD_PATTERNS, PAYMENT_REFERENCE } from '../contract/rules.js';
import { gatewayRequestSchema, type GatewayRequest } from '../contract/schemas.js';
import { failure } from './answers.js';

type CheckedInitiation = { ok: true; body: GatewayRequest } | { ok: false; answer: Response };

/** A URL the customer's browser and the merchant's server can be sent to: never `javascript:`, `data:` or `file:`. */
function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** Each string field's form, beyond the schema's types. */
const FIELD_RULES: Partial<Record<keyof GatewayRequest, (value: string) => boolean>> = {
  fullName: (value) => CUSTOMER_FIELD_PATTERNS.fullName.test(value),
  email: (value) => CUSTOMER_FIELD_PATTERNS.email.test(value),
  mobileNumber: (value) => CUSTOMER_FIELD_PATTERNS.mobileNumber.test(value),
  currency: (value) => /^[A-Z]{3}$/.test(value),
  country: (value) => /^[A-Z]{2}$/.test(value),
  paymentReference: (value) => PAYMENT_REFERENCE.test(value),
  callbackUrl: isHttpUrl,
  redirectUrl: isHttpUrl,
};

export function checkInitiation(raw: unknown, publicKey: string): CheckedInitiation {
  const refuse = (status: number, message: string, code?: string): CheckedInitiation => ({
    ok: false,
    answer: failure(status, message, { code }),
  });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return refuse(400, 'The body must be a JSON object.');
  if ((raw as { publicKey?: unknown }).publicKey !== publicKey) return refuse(403, 'Invalid public key.');
  const parsed = gatewayRequestSchema.safeParse(withBooleanRetry(raw));
  const invalid = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0] ?? 'body')));
  for (const [field, valid] of Object.entries(FIELD_RULES)) {
    const value = (raw as Record<string, unknown>)[field];
    if (typeof value === 'string' && !valid(value)) invalid.add(field);
  }
  if (!parsed.success || invalid.size > 0)
    return refuse(400, `Invalid/Missing parameters = ${[...invalid].join(', ')}`, 'S12');
  const ruleBroken = checkTypeRules(parsed.data, raw);
  return ruleBroken ? refuse(400, ruleBroken) : { ok: true, body: parsed.data };
}

/**
 * `retry` as our client sends it (a boolean, as the gateway's iOS app does) or as every published
 * example does (the string `"false"` or `"true"`): both mean the same to the sandbox.
 */
function withBooleanRetry(raw: object): object {
  const retry = (raw as { retry?: unknown }).retry;
  return retry === 'true' || retry === 'false' ? { ...raw, retry: retry === 'true' } : raw;
}

/** Spec 4.1 rules 1 and 2. */
function checkTypeRules(body: GatewayRequest, raw: object): string | undefined {
  if (body.paymentType === 'USSD') {
    if (body.bankCode === undefined) return 'bankCode is required for USSD.';
    if (!CUSTOMER_FIELD_PATTERNS.bankCode.test(body.bankCode)) return 'bankCode must be a short digit string.';
  } else if ('bankCode' in raw) {
    return 'bankCode must not be sent for TRANSFER.';
  }
  return undefined;
}
