// The bearer token (docs/architecture.md, "The token call"): made from the dashboard's keys through
// `encrypt/keys` and shared, or given by the merchant; renewed once when the gateway answers 401.
import { TOKEN_PATH } from '../../contract/gateway-paths.js';
import { isRecord, parseJson } from '../../contract/json.js';
import type { Redactor } from '../http/redact.js';
import { isOk, type Exchange, type Send } from './exchange.js';
import type { AccessToken, TokenFailure } from './types.js';

type TokenResult = { ok: true; token: string } | { ok: false; failure: TokenFailure };

type TokenSource = {
  /** The token to use now. */
  current(): Promise<TokenResult>;
  /** A token other than `used`, after the gateway refused `used` with a 401. */
  renew(used: string): Promise<TokenResult>;
};

/** Makes the token from `SECRET.PUBLIC` at `{baseUrl}/api/v2/encrypt/keys`. */
export function keyTokenSource(send: Send, baseUrl: string, secretKey: string, publicKey: string): TokenSource {
  return sharedTokenSource(async () => {
    const answer = await send(baseUrl + TOKEN_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ key: `${secretKey}.${publicKey}` }),
    });
    return readTokenAnswer(answer);
  });
}

/**
 * One `encrypt/keys` request at a time, its answer shared by every caller; kept until a 401 says it
 * is stale (the gateway publishes no lifetime). A failure is not kept: the next call asks again,
 * but no call asks twice.
 */
function sharedTokenSource(request: () => Promise<TokenResult>): TokenSource {
  let held: { promise: Promise<TokenResult>; token?: string } | undefined;

  function start(): Promise<TokenResult> {
    const entry: { promise: Promise<TokenResult>; token?: string } = {
      promise: request().then((result) => {
        if (result.ok) entry.token = result.token;
        else if (held === entry) held = undefined;
        return result;
      }),
    };
    held = entry;
    return entry.promise;
  }

  return {
    current: () => held?.promise ?? start(),
    // Twenty callers refused with the same token make one renewal: the first replaces it, the rest
    // find a token (or a request) that is no longer the one they used.
    renew: (used) => (held && held.token !== used ? held.promise : start()),
  };
}

/** A merchant's own token: a string (never renewed) or a function, asked per call and once more after a 401. */
export function givenTokenSource(accessToken: AccessToken): TokenSource {
  async function ask(): Promise<TokenResult> {
    try {
      const token = typeof accessToken === 'string' ? accessToken : await accessToken();
      if (typeof token === 'string' && token !== '') return { ok: true, token };
    } catch {
      // The function's error may quote the token: only the fact that it failed is kept.
    }
    return { ok: false, failure: { kind: 'token-failed', reason: 'source-failed' } };
  }
  return { current: ask, renew: ask };
}

/** One authorised call: `call` with the token, `unauthorised` spots a 401, `failed` turns a token failure into an outcome. */
export type AuthorisedCall<T> = {
  call: (token: string) => Promise<T>;
  unauthorised: (outcome: T) => boolean;
  failed: (failure: TokenFailure) => T;
  signal: AbortSignal | undefined;
};

/** How one attempt ended: `renewal`, a renewed token was refused too; `token`, the keys were refused. */
type Attempt<T> = { outcome: T; refused?: 'renewal' | 'token' };

/** The answer during a back-off: nothing is sent, and the refusal was reported when it came. */
const REFUSED_AGAIN: TokenFailure = { kind: 'token-failed', reason: 'refused', httpStatus: 401, repeated: true };

/**
 * Gets a token and makes the call; after a 401, renews the token once and makes the same call
 * again. Every token used is handed to `redactor`, so the gateway's words can be cleaned of it.
 *
 * When the renewed token is refused too, or the token endpoint refuses the keys themselves, the keys
 * are wrong, not stale: for `backoffMs` every call is answered at once with {@link REFUSED_AGAIN},
 * with no token request and no call (else each customer request would make a token request and two
 * calls). Then one call tries again, alone: the others are still answered at once until it ends, so
 * a period costs one token request, and the refusal is reported once (callers sharing one request
 * get it `repeated`).
 */
export function authoriser(tokens: TokenSource, redactor: Redactor, backoffMs: number) {
  let refusedUntil: number | undefined;
  let probing = false;

  // A token request's failure is shared by every caller that waited for it: the first reports it.
  const reported = new WeakSet<TokenFailure>();
  const once = (failure: TokenFailure): TokenFailure => {
    if (!reported.has(failure)) return (reported.add(failure), failure);
    return { ...failure, repeated: true };
  };

  async function attempt<T>({ call, unauthorised, failed, signal }: AuthorisedCall<T>): Promise<Attempt<T>> {
    const token = await untilAborted(tokens.current(), signal);
    if (!token.ok) return { outcome: failed(once(token.failure)), ...keysRefused(token.failure) };
    redactor.add(token.token);
    const outcome = await call(token.token);
    if (!unauthorised(outcome) || signal?.aborted) return { outcome };
    const renewed = await untilAborted(tokens.renew(token.token), signal);
    if (!renewed.ok) return { outcome: failed(once(renewed.failure)), ...keysRefused(renewed.failure) };
    if (renewed.token === token.token) return { outcome };
    redactor.add(renewed.token);
    const again = await call(renewed.token);
    return unauthorised(again) ? { outcome: again, refused: 'renewal' } : { outcome: again };
  }

  /**
   * A refused renewal, or keys the token endpoint refused (400, 401), starts a back-off; after one,
   * the trying call's end decides whether it goes on.
   */
  function backOff<T>({ outcome, refused }: Attempt<T>, trying: boolean): T {
    if (backoffMs > 0 && refused !== undefined) refusedUntil = Date.now() + backoffMs;
    else if (trying) refusedUntil = undefined;
    return outcome;
  }

  return async function authorised<T>(request: AuthorisedCall<T>): Promise<T> {
    if (refusedUntil === undefined) return backOff(await attempt(request), false);
    if (probing || Date.now() < refusedUntil) return request.failed(REFUSED_AGAIN);
    probing = true;
    try {
      return backOff(await attempt(request), true);
    } finally {
      probing = false;
    }
  };
}

/** `encrypt/keys` refused the keys themselves (400, 401, 403): asking again cannot help until they change. A 5xx or 429 may pass. */
function keysRefused(failure: TokenFailure): { refused?: 'token' } {
  const status = failure.httpStatus ?? 0;
  const refusal = failure.reason === 'refused' && status >= 400 && status < 500 && status !== 408 && status !== 429;
  return refusal ? { refused: 'token' } : {};
}

/** §1: `data.EncryptedSecKey.encryptedKey`, the wrapper in any case, with or without its `p`. */
function readTokenAnswer(answer: Exchange): TokenResult {
  const fail = (reason: TokenFailure['reason'], httpStatus?: number): TokenResult => ({
    ok: false,
    failure: { kind: 'token-failed', reason, ...(httpStatus === undefined ? {} : { httpStatus }) },
  });
  if (answer.kind !== 'answer') return fail(answer.kind);
  if (!isOk(answer.status)) return fail('refused', answer.status);
  const json = parseJson(answer.text);
  if (!isRecord(json) || json.status !== 'SUCCESS' || !isRecord(json.data)) return fail('unreadable', answer.status);
  const wrapper = valueOf(json.data, /^encryp?tedseckey$/i);
  const token = isRecord(wrapper) ? valueOf(wrapper, /^encryptedkey$/i) : undefined;
  if (typeof token !== 'string' || token.trim() === '') return fail('unreadable', answer.status);
  return { ok: true, token: token.trim() };
}

function valueOf(record: Record<string, unknown>, name: RegExp): unknown {
  return Object.entries(record).find(([key]) => name.test(key))?.[1];
}

/** Waits for a shared request without letting one caller's abort end it for the others. */
function untilAborted(promise: Promise<TokenResult>, signal: AbortSignal | undefined): Promise<TokenResult> {
  if (!signal) return promise;
  const timedOut: TokenResult = { ok: false, failure: { kind: 'token-failed', reason: 'timeout' } };
  if (signal.aborted) return Promise.resolve(timedOut);
  return new Promise((resolve) => {
    const stop = () => resolve(timedOut);
    signal.addEventListener('abort', stop, { once: true });
    void promise.then((result) => {
      signal.removeEventListener('abort', stop);
      resolve(result);
    });
  });
}
