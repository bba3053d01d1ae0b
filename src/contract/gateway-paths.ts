/**
 * The gateway's paths (docs/architecture.md, "The gateway"), shared by the server's gateway
 * client and the sandbox that stands in for it.
 */

/** The gateway's one operation: `POST {base_url}/api/v2/payments/initiates` (docs/architecture.md). */
export const INITIATE_PATH = '/api/v2/payments/initiates';

/** §1: the bearer token is made from the dashboard's keys here. */
export const TOKEN_PATH = '/api/v2/encrypt/keys';

/** §2: current docs use v3, older docs and SDKs v2; whether v2 still answers is uncertain. */
export type QueryVersion = 'v2' | 'v3';
export const QUERY_VERSIONS: readonly QueryVersion[] = ['v3', 'v2'];

/**
 * The query's path for `paymentReference`, encoded whole (`/` too). `undefined` for the references no
 * encoding keeps in place: empty, `.` and `..` would make the URL name another path.
 */
export function queryPath(version: QueryVersion, paymentReference: string): string | undefined {
  if (paymentReference === '' || paymentReference === '.' || paymentReference === '..') return undefined;
  return `/api/${version}/payments/query/${encodeURIComponent(paymentReference)}`;
}

/** Matches either version's query path; group 1 is the version, group 2 the encoded reference. */
export const QUERY_PATH_PATTERN = /\/api\/(v2|v3)\/payments\/query\/([^/]+)$/;
