// Whether an initiation body is one the gateway accepts: a JSON object with the merchant's
// publicKey, the spec's fields (2.1) and its per-type rules (4.1 rules 1 and 2). A refusal is the
// gateway's failure envelope: 400 for a broken rule, 403 for a wrong publicKey.
import { CUSTOMER_FIELD_PATTERNS } from '../rules.js';
import { gatewayRequestSchema, type GatewayRequest } from '../schemas.js';
import { failure } from './answers.js';

type CheckedInitiation = { ok: true; body: GatewayRequest } | { ok: false; answer: Response };

export function checkInitiation(raw: unknown, publicKey: string): CheckedInitiation {
  const refuse = (status: number, message: string): CheckedInitiation => ({ ok: false, answer: failure(status, message) });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return refuse(400, 'The body must be a JSON object.');
  if ((raw as { publicKey?: unknown }).publicKey !== publicKey) return refuse(403, 'Invalid public key.');
  const parsed = gatewayRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? 'body')))];
    return refuse(400, `Invalid field(s): ${fields.join(', ')}.`);
  }
  const ruleBroken = checkTypeRules(parsed.data, raw);
  return ruleBroken ? refuse(400, ruleBroken) : { ok: true, body: parsed.data };
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
