// The request's one deadline over the whole attempt, and the state that decides what it answers:
// the gateway's answer once there is one, else 504 (409 while another attempt holds the key).
import { withDeadline, type AbortFlag } from '../http/deadline.js';
import type { Reply } from '../http/reply.js';
import type { ResolvedOrder } from './order.js';
import { sessionError, type GatewayReply } from './outcomes.js';
import type { SessionReplies } from './replies.js';

/** Where an attempt was when its deadline passed, for the `deadline` event only. */
type AttemptStage = 'admit' | 'duplicate' | 'lock' | 'store' | 'order' | 'gateway' | 'ledger';

/**
 * What the deadline answers, and what becomes of the key's claim then. `preparing`: nothing was asked
 * of the gateway, so the claim is released at once; `waiting-for-key`: another attempt holds the key
 * (409); `asking`: an initiation of `order` may be out, so the attempt is unknown: the order is kept
 * for the retry and the claim released, whatever the call still does; `answered`: the gateway's
 * answer stands, set once, and the claim lasts until it is stored.
 */
type AttemptState =
  | { phase: 'preparing' }
  | { phase: 'waiting-for-key' }
  | { phase: 'asking'; order: ResolvedOrder }
  | { phase: 'answered'; answer: GatewayReply };

/** One request's progress, shared with the deadline that watches it. */
export type AttemptProgress = {
  /** Aborts when the deadline passed: nothing may reach the gateway after that. */
  readonly signal: AbortFlag;
  /** For the deadline's report only: what the attempt was waiting for. */
  stage: AttemptStage;
  /** Decides the deadline's answer and the key's claim; logging never reads it. */
  state: AttemptState;
};

/** The answer given in place of an attempt the deadline abandoned; nobody receives it. */
export const ABANDONED: GatewayReply = { reply: sessionError('gateway_timeout', 'Abandoned.'), keep: 'release' };

const STAGE_WORDS: Record<AttemptStage, string> = {
  admit: 'waiting for beforeInitiate',
  duplicate: 'waiting for the first request with the same Idempotency-Key',
  lock: 'waiting for another attempt with the same Idempotency-Key',
  store: 'waiting for the idempotency store',
  order: 'waiting for the order resolver',
  gateway: 'waiting for the gateway (its token, then the initiation)',
  ledger: 'waiting for the payment ledger',
};

const TIMED_OUT = sessionError('gateway_timeout', 'The payment could not be started in time. Please try again.');
const IN_USE_MESSAGE = 'A request with this Idempotency-Key is in progress.';
const IN_USE = sessionError('idempotency_key_in_use', IN_USE_MESSAGE, { headers: { 'retry-after': '1' } });

/**
 * Runs `work` under one deadline of `ms`. When it passes first, the answer is the gateway's if it
 * came (a store still writing cannot turn a made payment into an error), else 504 `gateway_timeout`
 * (409 `idempotency_key_in_use` while waiting for another attempt), and `onEvent` hears where it hung.
 */
export function withAttemptDeadline(
  ms: number,
  replies: SessionReplies,
  work: (progress: AttemptProgress) => Promise<Reply>,
): Promise<Reply> {
  let progress: AttemptProgress | undefined;
  return withDeadline(
    ms,
    (signal) => work((progress = { signal, stage: 'store', state: { phase: 'preparing' } })),
    () => deadlineReply(progress!, ms, replies),
  );
}

function deadlineReply(progress: AttemptProgress, ms: number, replies: SessionReplies): Reply {
  const { state } = progress;
  if (state.phase === 'answered') return state.answer.reply;
  replies.report('deadline', new Error(`no answer within ${ms} ms, ${STAGE_WORDS[progress.stage]}`));
  if (state.phase === 'waiting-for-key') return inUse(replies);
  return TIMED_OUT;
}

/** What a request's caller got when its deadline passed (its duplicates get the same), without reporting it again. */
export function answerAtDeadline(progress: AttemptProgress): Reply {
  const { state } = progress;
  if (state.phase === 'answered') return state.answer.reply;
  return state.phase === 'waiting-for-key' ? IN_USE : TIMED_OUT;
}

export function inUse(replies: SessionReplies): Reply {
  return replies.reject('idempotency_key_in_use', IN_USE_MESSAGE, { headers: { 'retry-after': '1' } });
}
