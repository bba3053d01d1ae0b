/**
 * The sandbox's webhook deliveries (docs/architecture.md, "The notification"): each notification is POSTed with
 * an `X-Expected-Ack-Reference` and counts as delivered only on HTTP 200 whose JSON echoes it as
 * `ackReference`; anything else (another status, a wrong or self-made ack, no connection, more than
 * 5 s) is retried after each of `retryDelaysMs`, then given up.
 */

import { jsonOrUndefined, readTextCut } from '../contract/bounded-body.js';

/** What the gateway waits for an answer (MINT webhook-events.mdx). */
const ANSWER_TIMEOUT_MS = 5_000;

/**
 * How much of the merchant's answer is read: an acknowledgement is a few dozen bytes, and a longer
 * answer is cut here (the rest never read) and counts as no acknowledgement.
 */
export const MAX_WEBHOOK_ANSWER_BYTES = 64 * 1024;

/** The gateway's published schedule: 30 s, 2 min, 10 min, 30 min, 1 h. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000, 1_800_000, 3_600_000];

/** One attempt, for the sandbox's `onWebhook` hook (the demo's event log). */
export type WebhookAttempt = {
  paymentReference: string;
  /** 1 for the first try. */
  attempt: number;
  /** The merchant's HTTP status, when it answered. */
  httpStatus?: number;
  acknowledged: boolean;
  /** The answer was longer than {@link MAX_WEBHOOK_ANSWER_BYTES}: read that far only, so no acknowledgement. */
  answerCut?: true;
  /** True when this was the last try and it was not acknowledged. */
  gaveUp: boolean;
};

type WebhookSender = {
  /** Starts delivering `body` (and its retries) in the background. */
  send(paymentReference: string, body: unknown): void;
  /** Resolves once every delivery started so far was acknowledged or given up. */
  settled(): Promise<void>;
  /** Stops waiting retries; deliveries under way finish their current try. */
  close(): void;
};

export function createWebhookSender(options: {
  url: string;
  fetch: typeof globalThis.fetch;
  retryDelaysMs: readonly number[];
  onAttempt?: (attempt: WebhookAttempt) => void;
}): WebhookSender {
  const running = new Set<Promise<void>>();
  const waits = new Set<() => void>();
  let closed = false;

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waits.add(done);
    });
  }

  async function attempt(
    body: string,
    ack: string,
  ): Promise<Pick<WebhookAttempt, 'httpStatus' | 'acknowledged' | 'answerCut'>> {
    try {
      const response = await options.fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-expected-ack-reference': ack },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      const { text, cut } = await readTextCut(response, MAX_WEBHOOK_ANSWER_BYTES);
      if (cut) return { httpStatus: response.status, acknowledged: false, answerCut: true };
      return { httpStatus: response.status, acknowledged: response.status === 200 && echoes(text, ack) };
    } catch {
      return { acknowledged: false };
    }
  }

  async function deliver(paymentReference: string, body: string): Promise<void> {
    const ack = `SBX-ACK-${crypto.randomUUID()}`;
    const tries = options.retryDelaysMs.length + 1;
    for (let n = 1; n <= tries && !closed; n += 1) {
      if (n > 1) await wait(options.retryDelaysMs[n - 2]!);
      if (closed) return;
      const result = await attempt(body, ack);
      try {
        options.onAttempt?.({ paymentReference, attempt: n, ...result, gaveUp: !result.acknowledged && n === tries });
      } catch {
        // A reporting hook must not stop deliveries.
      }
      if (result.acknowledged) return;
    }
  }

  return {
    send(paymentReference, body) {
      if (closed) return;
      const delivery = deliver(paymentReference, JSON.stringify(body)).finally(() => running.delete(delivery));
      running.add(delivery);
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
    close() {
      closed = true;
      for (const done of [...waits]) done();
    },
  };
}

function echoes(text: string, ack: string): boolean {
  const body = jsonOrUndefined(text) as { ackReference?: unknown; status?: unknown } | null | undefined;
  return body?.ackReference === ack && body.status === 'received';
}
