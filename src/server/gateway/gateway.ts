// One gateway account: its bearer token (made from the dashboard's keys, or given), the initiation
// and the payment query. Every call ends in an outcome; nothing here throws, and no outcome, message
// or reason ever carries the token or a key (docs/architecture.md, "The token call"). The parts live in
// `gateway/`: the token, the initiation, the query, the code table and the one request they share.
import type { GatewayRequest } from '../../contract/schemas.js';
import { QUERY_VERSIONS, type QueryVersion } from '../../contract/gateway-paths.js';
import { sender } from './exchange.js';
import { initiation } from './initiate.js';
import { paymentQuery } from './query.js';
import { authoriser, givenTokenSource, keyTokenSource } from './token.js';
import type { AccessToken, InitiateOutcome, QueryOutcome } from './types.js';
import { createRedactor } from '../http/redact.js';
import { optionChecks } from '../../contract/option-checks.js';

export type {
  AccessToken,
  GatewayOutcome,
  InitiateOutcome,
  QueryAnswer,
  QueryOutcome,
  QueryUnverified,
  TokenFailure,
} from './types.js';
export { paymentStateOf } from './codes.js';
export { buildGatewayRequest, redactEnvelope } from './initiate.js';

export type CallOptions = {
  /** Ends the call early; it then resolves as a time-out. */
  signal?: AbortSignal;
};

export type GatewayOptions = {
  /** The gateway's base URL, e.g. `https://seerbitapi.com`. */
  baseUrl: string;
  /** The dashboard's public key (sent in every initiation body by the session handler). */
  publicKey: string;
  /** The dashboard's secret key: the token is made from it and `publicKey` through `encrypt/keys`. */
  secretKey?: string;
  /** Instead of `secretKey`: a token made elsewhere, or a function giving one (called per call). */
  accessToken?: AccessToken;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** The query path's version; default `v3` (current docs). A 404 there is retried once on the other. */
  queryVersion?: QueryVersion;
  /** How long each request to the gateway may take, body included; default 15 000 ms. */
  timeoutMs?: number;
  /**
   * When the gateway refuses a renewed token too (a second 401), or `encrypt/keys` refuses the keys
   * (400, 401), how long every call is answered at once with a `token-failed` outcome
   * (`reason: 'refused'`, `repeated: true`) instead of asking again; then one call tries once more:
   * one token request per period, the refusal reported once. Default 30 000 ms; 0 asks every time.
   */
  refusedBackoffMs?: number;
};

export type Gateway = {
  readonly baseUrl: string;
  readonly publicKey: string;
  /**
   * `POST /api/v2/payments/initiates`. On a 401 the token is renewed once and the same `body` (so the
   * same `paymentReference`) sent once more.
   */
  initiate(body: GatewayRequest, options?: CallOptions): Promise<InitiateOutcome>;
  /** `GET /api/{v3|v2}/payments/query/{paymentReference}`, read into the ledger's terms. */
  query(paymentReference: string, options?: CallOptions): Promise<QueryOutcome>;
  /**
   * `text` with everything this gateway knows replaced by `[redacted]`: the public and secret keys,
   * the given token, the tokens it has made or used (the last 16), and anything after `Bearer `, as
   * written, JSON-escaped or URL-encoded. For handlers that pass the gateway's words or errors on
   * (`onEvent`, logs); the secrets themselves are never properties of the gateway.
   */
  redact(text: string): string;
};

export function createGateway(options: GatewayOptions): Gateway {
  assertOptions(options);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const send = sender(fetchFn, options.timeoutMs ?? 15_000);
  const primary = options.queryVersion ?? 'v3';
  const fallback = QUERY_VERSIONS.find((version) => version !== primary)!;
  const secrets = [
    options.publicKey,
    options.secretKey,
    typeof options.accessToken === 'string' ? options.accessToken : '',
  ];
  const redactor = createRedactor(secrets.filter((secret): secret is string => !!secret));
  const tokens =
    options.secretKey !== undefined
      ? keyTokenSource(send, baseUrl, options.secretKey, options.publicKey)
      : givenTokenSource(options.accessToken!);
  const authorised = authoriser(tokens, redactor, options.refusedBackoffMs ?? 30_000);
  const parts = { baseUrl, send, authorised, redact: redactor.text };
  const initiate = initiation(parts);
  const query = paymentQuery({ ...parts, primary, fallback });

  return {
    baseUrl,
    publicKey: options.publicKey,
    initiate: (body, { signal } = {}) => initiate(body, signal),
    query: (paymentReference, { signal } = {}) => query(paymentReference, signal),
    redact: (text) => redactor.text(text),
  };
}

function assertOptions(options: GatewayOptions): void {
  const check = optionChecks('createGateway');
  if (!options || typeof options.baseUrl !== 'string' || !URL.canParse(options.baseUrl))
    check.fail('baseUrl must be an absolute URL');
  if (typeof options.publicKey !== 'string' || options.publicKey === '') check.fail('publicKey is required');
  const hasSecret = options.secretKey !== undefined;
  const hasToken = options.accessToken !== undefined;
  if (hasSecret === hasToken) check.fail('give either secretKey or accessToken');
  if (hasSecret && (typeof options.secretKey !== 'string' || options.secretKey === ''))
    check.fail('secretKey must be a non-empty string');
  if (
    hasToken &&
    !(
      typeof options.accessToken === 'function' ||
      (typeof options.accessToken === 'string' && options.accessToken !== '')
    )
  ) {
    check.fail('accessToken must be a non-empty string or a function');
  }
  if (options.queryVersion !== undefined && !QUERY_VERSIONS.includes(options.queryVersion))
    check.fail("queryVersion must be 'v2' or 'v3'");
  check.positiveMs('timeoutMs', options.timeoutMs);
  check.nonNegativeMs('refusedBackoffMs', options.refusedBackoffMs);
}
