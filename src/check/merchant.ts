// The check's client for the merchant's back end: session, status and webhook requests with a
// time limit, every answer read up to MAX_ANSWER_BYTES and kept (the secrets check reads them all
// afterwards).
import { jsonOrUndefined, readTextCut } from '../contract/bounded-body.js';
import type { SessionBody } from './requests.js';

export type Reply = {
  /** 0 when there was no answer (refused connection, time-out). */
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
  /** Why there was no answer. */
  error?: string;
  /** The answer was longer than MAX_ANSWER_BYTES: `text` is its start, and `json` undefined. */
  cut?: true;
};

/** An answer is read this far at most: a back end cannot make the check hold an endless one. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export type MerchantUrls = { sessionUrl: string; statusUrl?: string; webhookUrl?: string };

export type SessionCall = {
  /** The `Idempotency-Key`; `null` sends none. */
  key: string | null;
  /** The raw body, instead of `body` as JSON. */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
};

export type MerchantClient = {
  urls: MerchantUrls;
  session(body: SessionBody | undefined, call: SessionCall): Promise<Reply>;
  status(query: Record<string, string>, headers?: Record<string, string>): Promise<Reply>;
  webhook(body: string, ackReference: string, contentType?: string): Promise<Reply>;
  send(url: string, init: RequestInit): Promise<Reply>;
  /** Every answer so far. */
  transcript(): readonly Reply[];
};

export function createMerchantClient(urls: MerchantUrls, timeoutMs: number): MerchantClient {
  const replies: Reply[] = [];

  async function send(url: string, init: RequestInit): Promise<Reply> {
    let reply: Reply;
    try {
      const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      const { text, cut } = await readTextCut(response, MAX_ANSWER_BYTES);
      reply = { status: response.status, headers: response.headers, text, json: cut ? undefined : jsonOrUndefined(text), ...(cut ? { cut } : {}) };
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describe(error);
      reply = { status: 0, headers: new Headers(), text: '', json: undefined, error: reason };
    }
    replies.push(reply);
    return reply;
  }

  return {
    urls,
    send,
    session(body, call) {
      const headers: Record<string, string> = { 'content-type': call.contentType ?? 'application/json', ...call.headers };
      if (call.key !== null) headers['idempotency-key'] = call.key;
      return send(urls.sessionUrl, { method: 'POST', headers, body: call.raw ?? JSON.stringify(body) });
    },
    status(query, headers = {}) {
      const url = new URL(urls.statusUrl!);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      return send(url.href, { headers });
    },
    webhook(body, ackReference, contentType = 'application/json') {
      return send(urls.webhookUrl!, {
        method: 'POST',
        headers: { 'content-type': contentType, 'x-expected-ack-reference': ackReference },
        body,
      });
    },
    transcript: () => replies,
  };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** `HTTP 404`, or why there was no answer: for failure messages. */
export function answered(reply: Reply): string {
  if (reply.status === 0) return `no answer (${reply.error})`;
  return reply.cut ? `HTTP ${reply.status} with an answer over ${MAX_ANSWER_BYTES / 1024 / 1024} MB (read no further)` : `HTTP ${reply.status}`;
}
