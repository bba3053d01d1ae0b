/**
 * `pay-widget/sandbox`: an offline stand-in for the gateway, for demos, local development and tests.
 *
 * ```ts
 * const sandbox = createSandboxGateway({ merchantName: 'Ada Books' });
 * const session = createSessionHandler({
 *   baseUrl: 'https://sandbox.invalid', publicKey: SANDBOX_PUBLIC_KEY, accessToken: SANDBOX_ACCESS_TOKEN,
 *   fetch: sandbox.fetch, order: async () => ({ amount: '1500', callbackUrl: '…', redirectUrl: '…' }),
 * });
 * const status = createStatusHandler({ lookup: (reference) => sandbox.lookup(reference) });
 * sandbox.setStatus(reference, 'SUCCESS'); // "the customer paid"
 * ```
 *
 * Magic amounts (compared as numbers, so `"402.00"` counts) rehearse failures:
 *
 * | amount | the sandbox answers | the session handler answers |
 * |---|---|---|
 * | `402` | HTTP 402, `{ status: "FAILED", data: { code: "51", message: "Insufficient funds" } }` (declined) | 402 `payment_declined` |
 * | `422` | HTTP 200, `status: "SUCCESS"` but `data.payments` lacks the payment type's fields | 502 `invalid_gateway_response` |
 * | `500` | HTTP 500 with a JSON error body, message "System malfunction, please try again" | 502 `gateway_error` |
 * | `502` | HTTP 200 with a truncated, unreadable JSON body | 502 `invalid_gateway_response` |
 * | `503` | HTTP 503 with an empty body | 502 `gateway_error` |
 * | `504` | the payment is created, but the answer comes after `slowMs` (default 35 s) | 504 `gateway_timeout` |
 *
 * Other answers: 401 (missing or wrong bearer token; the `Bearer` scheme in any case), 403 (wrong
 * `publicKey`), 400 (a body that is not a JSON object, an invalid field such as an amount that is
 * not above zero, USSD without `bankCode`, TRANSFER with one), 415 (not `application/json`), 404 (other paths), 405 (other methods), 409 (a
 * `paymentReference` reused for a different payment; the same payment again gets its first answer).
 */
export {
  createSandboxGateway,
  SANDBOX_ACCESS_TOKEN,
  SANDBOX_PUBLIC_KEY,
} from './sandbox-gateway.js';
export type { SandboxGateway, SandboxGatewayOptions, SandboxStatus } from './sandbox-gateway.js';
export { MAGIC_AMOUNTS, magicAmountOf } from './magic-amounts.js';
export type { MagicAmount } from './magic-amounts.js';
export { USSD_SHORT_CODES, ussdDialCode } from './ussd-short-codes.js';
