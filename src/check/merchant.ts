// The check's client for the merchant's back end: session, status and webhook requests with a
// time limit, every answer read up to MAX_ANSWER_BYTES and kept (the secrets check reads them all
// afterwards). What the merchant's page adds (`--header`, `--reference`, `--body-extra`) goes on
// each of them; the check's own headers win over the page's.
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

/** What every request of the merchant's page carries besides the widget's own fields (a cart's cookie, its reference). */
export type PageExtras = {
  /** Sent on every session, status and webhook request; never on a CORS preflight, as browsers send none there. */
  headers?: readonly (readonly [name: string, value: string])[];
  /** Merged into every JSON session body (`paymentReference`, a `cartId`). */
  sessionFields?: SessionBody;
};

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
  /** A request exactly as given, without the page's extras (the CORS preflight). */
  send(url: string, init: RequestInit): Promise<Reply>;
  /** Every answer so far. */
  transcript(): readonly Reply[];
};

export function createMerchantClient(urls: MerchantUrls, timeoutMs: number, extras: PageExtras = {}): MerchantClient {
  const replies: Reply[] = [];
  const pageHeaders = joinedHeaders(extras.headers ?? []);
  const withPageHeaders = (own: Record<string, string>) => {
    const headers = new Headers(pageHeaders);
    for (const [name, value] of Object.entries(own)) headers.set(name, value);
    return headers;
  };

  async function send(url: string, init: RequestInit): Promise<Reply> {
    let reply: Reply;
    try {
      const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      const { text, cut } = await readTextCut(response, MAX_ANSWER_BYTES);
      reply = {
        status: response.status,
        headers: response.headers,
        text,
        json: cut ? undefined : jsonOrUndefined(text),
        ...(cut ? { cut } : {}),
      };
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describe(error);
      reply = { status: 0, headers: new Headers(), text: '', json: undefined, error: reason };
    }
    replies.push(reply);
    return reply;
  }

  return {
    urls,
    send,
    session(body, call) {
      const headers: Record<string, string> = {
        'content-type': call.contentType ?? 'application/json',
        ...call.headers,
      };
      if (call.key !== null) headers['idempotency-key'] = call.key;
      const json = call.raw ?? JSON.stringify({ ...body, ...extras.sessionFields });
      return send(urls.sessionUrl, { method: 'POST', headers: withPageHeaders(headers), body: json });
    },
    status(query, headers = {}) {
      const url = new URL(urls.statusUrl!);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      return send(url.href, { headers: withPageHeaders(headers) });
    },
    webhook(body, ackReference, contentType = 'application/json') {
      return send(urls.webhookUrl!, {
        method: 'POST',
        headers: withPageHeaders({ 'content-type': contentType, 'x-expected-ack-reference': ackReference }),
        body,
      });
    },
    transcript: () => replies,
  };
}

/** The page's headers as one set: repeated cookies joined with `; ` (as a browser sends them), other repeats with `, `. */
function joinedHeaders(pairs: readonly (readonly [string, string])[]): Headers {
  const headers = new Headers();
  for (const [name, value] of pairs) {
    const cookies = name.toLowerCase() === 'cookie' ? headers.get('cookie') : null;
    if (cookies) headers.set('cookie', `${cookies}; ${value}`);
    else headers.append(name, value);
  }
  return headers;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** `HTTP 404`, or why there was no answer: for failure messages. */
export function answered(reply: Reply): string {
  if (reply.status === 0) return `no answer (${reply.error})`;
  return reply.cut
    ? `HTTP ${reply.status} with an answer over ${MAX_ANSWER_BYTES / 1024 / 1024} MB (read no further)`
    : `HTTP ${reply.status}`;
}
