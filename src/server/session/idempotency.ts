// The Idempotency-Key: its claim (atomic in the store, shared in this process), the replay of a
// stored answer, what the key keeps of an attempt, and the claim's release.
import { sleep } from '../http/deadline.js';
import type { Reply } from '../http/reply.js';
import type { ResolvedOrder } from './order.js';
import type { IdempotencyRecord, IdempotencyStore } from '../stores/idempotency-types.js';
import { ABANDONED, answerAtDeadline, inUse, type AttemptProgress } from './deadline.js';
import type { GatewayReply } from './outcomes.js';
import type { SessionReplies } from './replies.js';
import type { PaymentSteps } from './steps.js';

type IdempotentAttemptOptions = {
  store: IdempotencyStore;
  /** How long to wait for another attempt's claim on a key before answering 409. */
  lockWaitMs: number;
  /** How long a claim lasts if it is never released (a crashed instance): longer than any attempt. */
  claimTtlMs: number;
  /** How long a definitive answer is replayed. */
  doneTtlMs: number;
  /** How long the order of an attempt without a definitive answer is kept for its retry. */
  pendingTtlMs: number;
};

/**
 * Runs a payment attempt at most once per `Idempotency-Key` and answers its duplicates, within the
 * request's deadline (`progress`). `fingerprint` is the validated request: a key reused with
 * another one is refused.
 */
type IdempotentAttempt = (
  key: string,
  fingerprint: string,
  steps: PaymentSteps,
  replies: SessionReplies,
  progress: AttemptProgress,
) => Promise<Reply>;

/** One attempt under one key: what it is keyed by and answers with. */
type Attempt = {
  key: string;
  fingerprint: string;
  steps: PaymentSteps;
  replies: SessionReplies;
  progress: AttemptProgress;
};

type Claim = { record: IdempotencyRecord | undefined; release: () => void } | { reply: Reply };

/** What the key keeps of an attempt the deadline cut off while the gateway was asked: its order, for the retry. */
const CUT_OFF: GatewayReply = { reply: ABANDONED.reply, keep: 'pending' };

const FIRST_PAUSE_MS = 20;
const LONGEST_PAUSE_MS = 250;

/**
 * In this process, a duplicate waits for the first attempt and shares its answer. Across processes
 * (or handlers) sharing a store, the store's atomic claim is taken before the record is read, so two
 * instances cannot both find no record and both pay; an instance that finds the key claimed reads
 * the record again at growing intervals and replays the answer once it is stored.
 *
 * Nothing is stored before the gateway was asked, so requests that never reach it (refused orders,
 * rate limits, deadlines, a store that is down) cannot fill the store.
 */
export function createIdempotentAttempt(options: IdempotentAttemptOptions): IdempotentAttempt {
  const inFlight = new Map<string, Promise<{ fingerprint: string; reply: Reply }>>();

  return async (key, fingerprint, steps, replies, progress) => {
    const running = inFlight.get(key);
    if (running) {
      progress.stage = 'duplicate';
      const first = await running;
      return first.fingerprint === fingerprint ? replies.replayed(key, first.reply) : replies.keyReused();
    }
    // Settles by the first request's deadline, with what its caller got then: a hung resolver or
    // store cannot hold its duplicates, nor the key, beyond it.
    const attempt = new Promise<{ fingerprint: string; reply: Reply }>((resolve) => {
      progress.signal.onAbort(() => resolve({ fingerprint, reply: answerAtDeadline(progress) }));
      attemptOnce(options, { key, fingerprint, steps, replies, progress }).then((reply) =>
        resolve({ fingerprint, reply }),
      );
    });
    inFlight.set(key, attempt);
    try {
      return (await attempt).reply;
    } finally {
      inFlight.delete(key);
    }
  };
}

async function attemptOnce(options: IdempotentAttemptOptions, attempt: Attempt): Promise<Reply> {
  const { steps, progress } = attempt;
  const claim = await claimKey(options, attempt);
  if ('reply' in claim) return claim.reply;
  const { record, release } = claim;
  // At the deadline the key is freed for the retry, unless the gateway has answered (then it is
  // freed once that answer is stored). A call still out is unknown: its order is kept first, so
  // the retry names the same payment, and a call that never ends cannot hold the key.
  let cutOff: Promise<void> | undefined;
  progress.signal.onAbort(() => {
    const { state } = progress;
    if (state.phase === 'preparing') release();
    if (state.phase === 'asking') cutOff = keep(options, attempt, state.order, CUT_OFF).finally(release);
  });
  try {
    if (progress.signal.aborted) return ABANDONED.reply;
    const entered = await steps.enter(record?.order, progress);
    if (!entered.ok) return entered.reply;
    const { order } = entered;
    if (progress.signal.aborted) return ABANDONED.reply;
    progress.state = { phase: 'asking', order };
    const result = await steps.initiate(entered, progress);
    // Once cut off, the key is no longer this attempt's: a retry may hold it by now.
    if (!cutOff) await keep(options, attempt, order, result);
    return result.reply;
  } finally {
    if (!cutOff) release();
  }
}

/** Stores what the key keeps of the gateway's answer (see `Keep`). */
async function keep(
  options: IdempotentAttemptOptions,
  attempt: Attempt,
  order: ResolvedOrder,
  result: GatewayReply,
): Promise<void> {
  if (result.keep === 'release') return;
  const { store, doneTtlMs, pendingTtlMs } = options;
  attempt.progress.stage = 'store';
  const { fingerprint } = attempt;
  const { status, body } = result.reply;
  const outcome: IdempotencyRecord =
    result.keep === 'done'
      ? { state: 'done', fingerprint, order, reply: { status, body } }
      : { state: 'pending', fingerprint, order };
  try {
    await store.set(attempt.key, outcome, result.keep === 'done' ? doneTtlMs : pendingTtlMs);
  } catch (error) {
    // The customer still gets the gateway's answer. A retry finds the claim free and no record:
    // the ledger's entry for the key names the same payment.
    attempt.replies.report('store', error);
  }
}

/** Takes the key's claim, then reads its record; while another attempt holds it, waits and reads again. */
async function claimKey(options: IdempotentAttemptOptions, attempt: Attempt): Promise<Claim> {
  const { store, lockWaitMs, claimTtlMs } = options;
  const { key, fingerprint, replies, progress } = attempt;
  const waitUntil = Date.now() + lockWaitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    progress.stage = 'store';
    progress.state = { phase: 'preparing' };
    const read = await claimAndRead(store, key, claimTtlMs, replies);
    if ('reply' in read) return read;
    const { claimed, record, release } = read;
    if (record && record.fingerprint !== fingerprint) {
      release();
      return { reply: replies.keyReused() };
    }
    if (record?.state === 'done') {
      release();
      return { reply: replies.replayed(key, record.reply) };
    }
    if (claimed) return { record, release };
    const left = waitUntil - Date.now();
    if (left <= 0 || progress.signal.aborted) return { reply: inUse(replies) };
    progress.stage = 'lock';
    progress.state = { phase: 'waiting-for-key' };
    await sleep(Math.min(pause, left), progress.signal);
  }
}

/** The key's claim and its record: in one step when the store can (`claimAndGet`: one round trip to Redis), else claim, then read. */
async function claimAndRead(
  store: IdempotencyStore,
  key: string,
  ttlMs: number,
  replies: SessionReplies,
): Promise<{ claimed: boolean; record: IdempotencyRecord | undefined; release: () => void } | { reply: Reply }> {
  let claimed: boolean;
  let record: IdempotencyRecord | undefined;
  try {
    if (store.claimAndGet) ({ claimed, record } = await store.claimAndGet(key, ttlMs));
    else claimed = await store.claim(key, ttlMs);
  } catch (error) {
    return { reply: replies.busy('store', error) };
  }
  const release = claimed ? releaser(store, key, replies) : () => {};
  if (store.claimAndGet) return { claimed, record, release };
  try {
    return { claimed, record: await store.get(key), release };
  } catch (error) {
    release();
    return { reply: replies.busy('store', error) };
  }
}

/** Releases a claim once, without waiting for it: a store failing there cannot change the answer. */
function releaser(store: IdempotencyStore, key: string, replies: SessionReplies): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      const result = store.release(key);
      if (result) result.then(undefined, (error: unknown) => replies.report('store', error));
    } catch (error) {
      replies.report('store', error);
    }
  };
}
