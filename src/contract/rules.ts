/**
 * The rules each field follows, as plain data. `schemas.ts` builds the zod schemas (the server's
 * checks and every TypeScript type) from these same constants; the browser checks them directly,
 * because zod's runtime, even `zod/mini`, would take a third of the script tag's 16 KB budget.
 *
 * Nothing here may import zod.
 */

export const PAYMENT_TYPES = ['USSD', 'TRANSFER'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export const PAYMENT_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** How a payment ends: what `pay-complete` reports. */
export type FinalStatus = Exclude<PaymentStatus, 'PENDING'>;

/**
 * Why a status answer says more than its status: the gateway reported a payment of another amount
 * (`amount-mismatch`, with `amountReceived` when known), or confirmed one after it had said it failed
 * or expired (`after-expiry`). A person at the shop looks at both.
 */
export const STATUS_REASONS = ['amount-mismatch', 'after-expiry'] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

/** A status answer's `reason`, with what was received when the server said. */
export type StatusReview = { reason: StatusReason; amountReceived?: string; currencyReceived?: string };

/** Separators a customer may type inside a phone number; removed before it is checked or sent. */
const PHONE_SEPARATORS = /[\s().-]/g;

/**
 * A merchant's or the server's payment reference: the session endpoint's hint, the order's
 * reference, the status endpoint's query parameter. One rule, so a reference the session endpoint
 * accepted is one every status poll accepts too. `/` is allowed for invoice numbers (`INV/2024/0042`).
 * A reference made only of dots, or with a `.` or `..` segment, is refused: put in the query's URL it
 * would name another path (`/payments/query/..` is `/payments/`), and the bearer token would go there.
 */
export const PAYMENT_REFERENCE = /^(?!\.+$)(?!(?:.*\/)?\.\.?(?:\/|$))[\w.:/-]{1,128}$/;

/** A bank's code, as the spec has it: "a short digit string". */
export const BANK_CODE = /^\d{3,6}$/;

/** Each customer field's pattern, matched against the normalized value. */
export const CUSTOMER_FIELD_PATTERNS = {
  /**
   * No control or format characters (NUL, CR/LF, bidi overrides…), no line or paragraph separators,
   * no lone surrogates: the name is forwarded to the gateway and shown back. ZWNJ and ZWJ stay
   * allowed: some scripts need them to spell a name.
   */
  fullName: /^(?:[^\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]|\u200c|\u200d){2,100}$/u,
  email: /^(?=.{3,254}$)(?!\.)(?!.*\.\.)[\w'+.-]*[\w+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/,
  mobileNumber: /^\+?\d{7,15}$/,
  bankCode: BANK_CODE,
};
export type CustomerField = keyof typeof CUSTOMER_FIELD_PATTERNS;

/** An amount in major units with up to two decimals: a hint's, the order's, its fee. */
export const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const CURRENCY = /^[A-Za-z]{3}$/;

/** The merchant's hints to the session endpoint; the server may use or ignore them. */
export const HINT_PATTERNS = {
  amount: AMOUNT,
  currency: CURRENCY,
  country: /^[A-Za-z]{2}$/,
  paymentReference: PAYMENT_REFERENCE,
};
export type HintField = keyof typeof HINT_PATTERNS;

// Marked pure so that a bundle which never reads it (the browser's) drops it.
export const FIELD_PATTERNS: Record<CustomerField | HintField, RegExp> = /* @__PURE__ */ Object.assign(
  {},
  CUSTOMER_FIELD_PATTERNS,
  HINT_PATTERNS,
);

export function normalizeField(field: CustomerField | HintField, value: string): string {
  return field === 'mobileNumber' ? value.replace(PHONE_SEPARATORS, '') : value.trim();
}

export function isValidField(field: CustomerField, value: string): boolean {
  return CUSTOMER_FIELD_PATTERNS[field].test(normalizeField(field, value));
}

const PRESENT = /\S/;

/** What `data.payments` must hold for each payment type, names exactly as the gateway spells them (docs/architecture.md). */
export const PAYMENTS_PATTERNS = {
  USSD: {
    paymentReference: PRESENT,
    linkingReference: PRESENT,
    providerreference: PRESENT,
    /** `*` and `#` delimiters around digit groups, e.g. `*737*000*1234#`. */
    ussdDailCode: /^\*\d+(\*\d+)*#$/,
  },
  TRANSFER: {
    paymentReference: PRESENT,
    walletName: PRESENT,
    wallet: PRESENT,
    bankName: PRESENT,
    accountNumber: /^\d{6,20}$/,
  },
};

/**
 * The session endpoint's `order` (docs/own-back-end.md, "The session-endpoint contract"): what the
 * server charges. `statusToken` is optional and opaque; it only needs to be a string.
 */
export const ORDER_PATTERNS = {
  paymentReference: PAYMENT_REFERENCE,
  amount: AMOUNT,
  currency: CURRENCY,
};

/** Whether `value` is an object whose listed properties are strings matching their patterns. */
export function matchesPatterns(value: unknown, patterns: Record<string, RegExp>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.entries(patterns).every(([key, pattern]) => {
    const field = record[key];
    return typeof field === 'string' && pattern.test(field);
  });
}
