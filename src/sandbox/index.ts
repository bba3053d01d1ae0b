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
 * It moves no money, so it refuses to start where `NODE_ENV` is `production` (a TypeError from
 * `createSandboxGateway`) unless `allowInProduction: true` is passed, for a public demo. Where
 * NODE_ENV cannot be read (Deno with `--allow-env=PORT`) it is taken as production, and the
 * TypeError says so.
 * It keeps at most `maxPayments` payments (default 10 000), forgetting the one settled longest ago
 * first and a pending one only when every payment kept is pending.
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
 * Other answers: 403 `{ message: "Header Token Missing", error: "PERMISSION" }` (no Authorization
 * header, as the gateway answers), 401 (a bearer token it does not accept; the `Bearer` scheme in
 * any case), 403 (wrong `publicKey`), 400 (a body that is not a JSON object, USSD without `bankCode`, TRANSFER with one;
 * `data.code` `S12` "Invalid/Missing parameters = …" naming each field missing or out of form: an amount not above
 * zero, an email that is not an address, a callbackUrl or redirectUrl that is not http(s), a mobile number, currency
 * (`NGN`) or country (`NG`) that cannot be one), 415 (not `application/json`), 404 (other paths), 405 (other methods),
 * 409 (a
 * `paymentReference` reused for a different payment; the same payment again gets its first answer
 * with `retry: true`, a duplicate `S18` without). `retry` is taken as a boolean (what our client
 * sends, as the gateway's iOS app does) or as the string `"true"`/`"false"` (every published
 * example). A TRANSFER answer carries `payments.amount`, a number, as the published example does.
 *
 * Besides initiation (docs/architecture.md, "The gateway"):
 *
 * | request | the sandbox answers |
 * |---|---|
 * | `POST /api/v2/encrypt/keys` `{"key":"SECRET.PUBLIC"}` | 200 `{ status: "SUCCESS", data: { code: "00", EncryptedSecKey: { encryptedKey } } }` for `SANDBOX_SECRET_KEY` + `SANDBOX_PUBLIC_KEY` (or `secretKey` + `publicKey`); 400 `{ message: "Bad Request", error }` for other keys. The token works for `tokenTtlMs` (default 1 h), then 401; `SANDBOX_ACCESS_TOKEN` always works |
 * | `GET /api/v2/payments/query/{ref}` or `/api/v3/…` | 200 with `status: "SUCCESS"` whatever the state; `data.code` `S20` pending, `00` paid, `S12` failed; `data.payments.amount` a number, `currency`, `paymentBreakdown`; 500 `{ message: "No transaction found", error: "PROCESSING" }` for an unknown reference; 401 without a valid token |
 * | webhooks (`webhookUrl`) | each `setStatus` POSTs a `transaction` notification with `X-Expected-Ack-Reference`; retried after each of `webhookRetryDelaysMs` (default 30 s, 2 min, 10 min, 30 min, 1 h) unless answered 200 with that `ackReference` and `status: "received"`; `duplicateWebhooks` sends each twice |
 */
export {
  createSandboxGateway,
  SANDBOX_ACCESS_TOKEN,
  SANDBOX_PUBLIC_KEY,
  SANDBOX_SECRET_KEY,
} from './sandbox-gateway.js';
export type { WebhookAttempt } from './webhooks.js';
export type { SandboxGateway, SandboxGatewayOptions, SandboxStatus } from './sandbox-gateway.js';
export type { SandboxPayment, SandboxStorage } from './payments.js';
export { MAGIC_AMOUNTS, magicAmountOf } from './magic-amounts.js';
export type { MagicAmount } from './magic-amounts.js';
export { USSD_SHORT_CODES, ussdDialCode } from './ussd-short-codes.js';
