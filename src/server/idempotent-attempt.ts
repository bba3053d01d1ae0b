import { sleep } from './deadline.js';
import type { IdempotencyRecord, IdempotencyStore } from './idempotency.js';
import { ABANDONED_REPLY, inUse, withAttemptDeadline, type AttemptProgress, type PaymentSteps } from './payment-steps.js';
import type { Reply } from './reply.js';
import type { SessionReplies } from './session-replies.js';

export type IdempotentAttemptOptions = {
  store: IdempotencyStore;
  /** How long to wait for another attempt's claim on a key (`reserve`) before answering 409. */
  lockWaitMs: number;
  /** The deadline on one attempt, from its claim to its answer. */
  deadlineMs: number;
};

/**
 * Runs a payment attempt at most once per `Idempotency-Key` and answers its duplicates.
 * `fingerprint` is the validated request: a key reused with another one is refused.
 */
export type IdempotentAttempt = (
  key: string,
  fingerprint: string,
  steps: PaymentSteps,
  replies: SessionReplies,
) => Promise<Reply>;

type Claim = { record: IdempotencyRecord | undefined; release: () => void } | { reply: Reply };

const FIRST_PAUSE_MS = 20;
const LONGEST_PAUSE_MS = 250;

/**
 * In this process, a duplicate waits for the first attempt and shares its answer. Across processes
 * (or handlers) sharing a store, the store's `reserve` claim is taken before the record is read, so
 * two instances cannot both find no record and both pay; an instance that finds the key claimed
 * reads the record again at growing intervals and replays the answer once it is stored.
 */
export function createIdempotentAttempt(options: IdempotentAttemptOptions): IdempotentAttempt {
  const { store, lockWaitMs, deadlineMs } = options;
  const inFlight = new Map<string, Promise<{ fingerprint: string; reply: Reply }>>();

  return async (key, fingerprint, steps, replies) => {
    const running = inFlight.get(key);
    if (running) {
      const first = await running;
      return first.fingerprint === fingerprint ? replies.replayed(key, first.reply) : replies.keyReused();
    }
    // Bounded by the deadline, so a hung resolver, token source or store never holds the key.
    const attempt = withAttemptDeadline(deadlineMs, replies, (progress) =>
      attemptOnce(key, fingerprint, steps, replies, progress),
    ).then((reply) => ({ fingerprint, reply }));
    inFlight.set(key, attempt);
    try {
      return (await attempt).reply;
    } finally {
      inFlight.delete(key);
    }
  };

  async function attemptOnce(
    key: string,
    fingerprint: string,
    steps: PaymentSteps,
    replies: SessionReplies,
    progress: AttemptProgress,
  ): Promise<Reply> {
    const claim = await claimKey(key, fingerprint, replies, progress);
    if ('reply' in claim) return claim.reply;
    const { record, release } = claim;
    if (progress.signal.aborted) {
      release();
      return ABANDONED_REPLY;
    }
    // Abandoned by the deadline before the gateway answered: the key is free for the retry.
    progress.signal.onAbort(() => progress.answer || release());
    try {
      let order = record?.order;
      if (!order) {
        const resolved = await steps.resolveOrder(progress);
        if (!resolved.ok) return resolved.reply;
        order = resolved.order;
        if (progress.signal.aborted) return ABANDONED_REPLY;
        progress.stage = 'store';
        try {
          await store.set(key, { state: 'pending', fingerprint, order });
        } catch (error) {
          return isStoreFull(error)
            ? replies.reject('server_busy', 'Too many payments are being started right now. Please try again shortly.', {
                headers: { 'retry-after': '10' },
              })
            : replies.internal('store', error);
        }
      }
      if (progress.signal.aborted) return ABANDONED_REPLY;
      const result = await steps.initiate(order, progress);
      if (result.definitive) {
        progress.stage = 'store';
        const { status, body } = result.reply;
        try {
          await store.set(key, { state: 'done', fingerprint, order, reply: { status, body } });
        } catch (error) {
          // The payment is made: the customer still gets its instructions. A retry finds the pending
          // record and asks the gateway again with the same paymentReference.
          replies.report('store', error);
        }
      }
      return result.reply;
    } finally {
      release();
    }
  }

  /** Takes the key's claim, then reads its record; while another attempt holds it, waits and reads again. */
  async function claimKey(key: string, fingerprint: string, replies: SessionReplies, progress: AttemptProgress): Promise<Claim> {
    const waitUntil = Date.now() + lockWaitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      progress.stage = 'store';
      let reserved: boolean;
      let record: IdempotencyRecord | undefined;
      try {
        reserved = store.reserve ? await store.reserve(key) : true;
      } catch (error) {
        return { reply: replies.internal('store', error) };
      }
      const release = reserved ? releaser(key, replies) : () => {};
      try {
        record = await store.get(key);
      } catch (error) {
        release();
        return { reply: replies.internal('store', error) };
      }
      if (record && record.fingerprint !== fingerprint) {
        release();
        return { reply: replies.keyReused() };
      }
      if (record?.state === 'done') {
        release();
        return { reply: replies.replayed(key, record.reply) };
      }
      if (reserved) return { record, release };
      const left = waitUntil - Date.now();
      if (left <= 0 || progress.signal.aborted) return { reply: inUse(replies) };
      progress.stage = 'lock';
      await sleep(Math.min(pause, left), progress.signal);
    }
  }

  /** Releases a claim once, without waiting for it: a store failing there cannot change the answer. */
  function releaser(key: string, replies: SessionReplies): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      try {
        const result = store.release?.(key);
        if (result) result.then(undefined, (error: unknown) => replies.report('store', error));
      } catch (error) {
        replies.report('store', error);
      }
    };
  }
}

function isStoreFull(error: unknown): boolean {
  return error instanceof Error && error.name === 'IdempotencyStoreFullError';
}
