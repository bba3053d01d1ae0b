/**
 * Server-side helpers shared by the session handler, the sandbox gateway and the demo. Not for
 * browser code (rules.ts is the browser's).
 */

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Whether a `Content-Type` header value says JSON: `application/json`, in any case, with or
 * without parameters (`; charset=utf-8`). Not `text/plain` nor `application/x-www-form-urlencoded`,
 * which a cross-site form can send without a CORS preflight.
 */
export function isJsonContentType(header: string | null | undefined): boolean {
  return JSON_CONTENT_TYPE.test(header ?? '');
}
