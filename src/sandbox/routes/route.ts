// What every sandbox route shares: the state it reads (`SandboxContext`), its shape in the route
// table (`SandboxRoute`), the bearer-token check, and the gateway-shaped answer to a request that
// fails one of the shared checks of server/http/checks.ts.
import { ERROR_STATUS } from '../../contract/error-codes.js';
import type { RequestProblem } from '../../contract/request-checks.js';
import { failure, labelledError } from '../answers.js';
import type { PaymentBook } from '../payments.js';
import type { SandboxTokens } from '../tokens.js';

export type SandboxContext = {
  /** The `publicKey` initiation requests must carry. */
  publicKey: string;
  /** How long magic amount 504 waits before answering. */
  slowMs: number;
  tokens: SandboxTokens;
  payments: PaymentBook;
};

export type SandboxRoute = {
  /** The methods it answers, as its `Allow` header says them; others get 405 before `handle`. */
  allow: string;
  /** The path's parameters when the path is this route's, otherwise undefined. */
  match(path: string): readonly string[] | undefined;
  handle(request: Request, params: readonly string[]): Promise<Response> | Response;
};

/** The largest request body the sandbox reads; the gateway's requests are a few hundred bytes. */
export const MAX_BODY_BYTES = 100_000;

/** RFC 7235: the scheme is case-insensitive (`Bearer`, `bearer`), then one or more spaces, then the token. */
const BEARER = /^bearer +(.+)$/i;

export function authorised(context: SandboxContext, request: Request): boolean {
  return context.tokens.accepts(BEARER.exec(request.headers.get('authorization') ?? '')?.[1]);
}

/**
 * No Authorization header at all: 403 "Header Token Missing" in the gateway's `{ message, error }`
 * shape (OAPI `403Response1`); a token it does not accept: 401, which a client renews its token on.
 */
export function unauthorised(request: Request): Response {
  if (!request.headers.get('authorization')) return labelledError(403, 'Header Token Missing', 'PERMISSION');
  return failure(401, 'Missing or invalid access token.', { headers: { 'www-authenticate': 'Bearer' } });
}

/** A shared check's problem in the gateway's `{ status: "ERROR", data }` envelope, with its HTTP status. */
export function problemAnswer(problem: RequestProblem): Response {
  return failure(ERROR_STATUS[problem.code], problem.message, { headers: problem.headers });
}

/** Waits like a slow network; rejects as `fetch` does when the caller aborts, so nothing hangs. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
