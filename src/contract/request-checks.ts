// The request checks every endpoint shares (ours, the sandbox's and the check's), in the order a request meets them:
// its method, its content type, its body (size, read time, JSON). Each returns a `RequestProblem` or nothing; the
// endpoint turns a problem into its own reply (our error body, or the gateway's in the sandbox) and its own report.
import { isJsonContentType } from './json-content-type.js';
import { readBodyText } from './body-text.js';
import { parseJson } from './json.js';
import type { ErrorCode } from './error-codes.js';

export type RequestProblem = {
  code: ErrorCode;
  /** What the caller should do, in words for a developer (these never reach a customer's screen). */
  message: string;
  /** What went wrong, for logs: `method`, `content-type`, `too-large`, `slow-body`, `unreadable`, `malformed`. */
  reason: 'method' | 'content-type' | 'too-large' | 'slow-body' | 'unreadable' | 'malformed';
  headers?: Record<string, string>;
  /** `malformed` because nothing arrived: behind a body parser that read it first, a setup error. */
  empty?: true;
};

/** A method not in `allow` (the endpoint's `Allow` header, such as `'POST, OPTIONS'`) is a 405 that names it. */
export function requireMethod(request: Request, allow: string): RequestProblem | undefined {
  const methods = allow.split(',').map((method) => method.trim());
  if (methods.includes(request.method)) return undefined;
  const named = methods.filter((method) => method !== 'OPTIONS' && method !== 'HEAD');
  return { code: 'method_not_allowed', message: `Use ${named.join(' or ')}.`, reason: 'method', headers: { allow } };
}

/** A body that does not say `application/json` (a cross-site form can send the others without a preflight) is a 415. */
export function requireJson(request: Request, what = 'the body'): RequestProblem | undefined {
  if (isJsonContentType(request.headers.get('content-type'))) return undefined;
  return { code: 'unsupported_media_type', message: `Send ${what} as application/json.`, reason: 'content-type' };
}

type BodyLimits = { maxBytes: number; timeoutMs?: number; what?: string };

type JsonBody = { ok: true; json: unknown } | { ok: false; problem: RequestProblem };

/** The body read within `limits` and parsed: JSON text that is not JSON is a problem, any JSON value is not. */
export async function readJsonBody(request: Request, limits: BodyLimits): Promise<JsonBody> {
  const what = limits.what ?? 'The body';
  const body = await readBodyText(request, limits.maxBytes, limits.timeoutMs);
  if (!body.ok) {
    const problem: RequestProblem =
      body.reason === 'timeout'
        ? { code: 'request_timeout', message: `${what} took too long to arrive.`, reason: 'slow-body' }
        : body.reason === 'too-large'
          ? {
              code: 'payload_too_large',
              message: `${what} is larger than ${limits.maxBytes} bytes.`,
              reason: 'too-large',
            }
          : { code: 'invalid_json', message: `${what} could not be read.`, reason: 'unreadable' };
    return { ok: false, problem };
  }
  const json = parseJson(body.text);
  if (json === undefined) {
    const problem: RequestProblem = {
      code: 'invalid_json',
      message: `${what} is not valid JSON.`,
      reason: 'malformed',
    };
    return { ok: false, problem: body.text === '' ? { ...problem, empty: true } : problem };
  }
  return { ok: true, json };
}
