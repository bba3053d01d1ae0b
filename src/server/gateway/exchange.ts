// One request to the gateway: a time-out that covers the body, no redirects followed, and what
// came back (the status and text, or why there is none), before anything reads it.
import { readBounded } from '../../contract/bounded-body.js';

/** What came back from one request, before it is read: the status and text, or why there is none. */
export type Exchange =
  { kind: 'answer'; status: number; text: string } | { kind: 'timeout' } | { kind: 'unreachable'; reason: string };

/** Subscribes `abort` to whatever may end a call early; returns the unsubscribe. */
type AbortSubscription = (abort: () => void) => () => void;

/**
 * The gateway's message is kept whole (up to this bound on an absurd body): whoever shows it must
 * redact customer details before shortening it, or a cut could leave half an e-mail address behind.
 */
export const MAX_RAW_MESSAGE = 8192;

/**
 * The gateway's answers are envelopes of a few hundred bytes: one longer than this is not read
 * further (the rest is cancelled) and reaches the readers as an empty, unreadable text.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** Sends one request to the gateway with `timeoutMs`, ended early too when `signal` aborts. */
export type Send = (url: string, init: RequestInit, signal?: AbortSignal) => Promise<Exchange>;

export function sender(fetchFn: typeof globalThis.fetch, timeoutMs: number): Send {
  return (url, init, signal) => exchange(fetchFn, url, init, timeoutMs, signal && subscribe(signal));
}

/**
 * One request with a time-out that also covers a body that trickles in. Redirects are not followed:
 * one would carry the token or the customer's details to another address.
 */
async function exchange(
  fetchFn: typeof globalThis.fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  onAbort?: AbortSubscription,
): Promise<Exchange> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, timeoutMs);
  const unsubscribe = onAbort?.(abort);
  try {
    const response = await fetchFn(url, { ...init, redirect: 'manual', signal: controller.signal });
    const body = await readBounded(response.body, MAX_ANSWER_BYTES);
    if (body.ok) return { kind: 'answer', status: response.status, text: utf8.decode(body.bytes) };
    if (body.reason === 'unreadable') throw body.error;
    return { kind: 'answer', status: response.status, text: '' };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'timeout' };
    return { kind: 'unreachable', reason: describeNetworkError(error) };
  } finally {
    clearTimeout(timer);
    unsubscribe?.();
  }
}

/** As `response.text()` decodes: a malformed sequence replaced, a leading BOM dropped. */
const utf8 = new TextDecoder();

function subscribe(signal: AbortSignal): AbortSubscription {
  return (abort) => {
    if (signal.aborted) {
      abort();
      return () => {};
    }
    signal.addEventListener('abort', abort, { once: true });
    return () => signal.removeEventListener('abort', abort);
  };
}

export function jsonHeaders(token: string): Record<string, string> {
  return { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` };
}

export function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'unknown';
}
