// Polls `status-url` after the gateway gave its instructions: about every 2 s, slowing to about
// every 10 s after the first minute, giving up 20 minutes after a transfer's account runs out (50
// minutes at least: 20 past the 30 an account is usually valid), since a transfer made just before
// it ran out may still arrive, and "I've sent the money" must still check it. That button asks at
// once, with `recheck=1`, and the schedule goes on from there. Part of what runs after a submit.
import { fetchStatus, type StatusAnswer, type StatusQuery } from './client.js';
import { timeLeftOf } from './countdown.js';
import type { Order } from '../contract/schemas.js';

const MINUTE = 60_000;

/** About every 2 s, slowing to about 10 s after the first minute. */
export function nextPollDelay(elapsedMs: number): number {
  return elapsedMs < MINUTE ? 2_000 : 10_000;
}

/** The least time a payment's status is polled: 20 minutes past the 30 a transfer account is usually valid. */
export const LEAST_POLLING_MS = 50 * MINUTE;

/** How long to poll for `order`: until 20 minutes after its account runs out, and LEAST_POLLING_MS at least. */
export function pollingTime(order: Order | undefined): number {
  return Math.max(LEAST_POLLING_MS, 20 * MINUTE + (timeLeftOf(order) || 0));
}

/** A status look-up that hangs is abandoned after this long, so one slow answer cannot stall the schedule. */
const STATUS_TIMEOUT_MS = 15_000;

export type PollHandlers = {
  /** `status-url` said SUCCESS or FAILED, or gave a reason to tell the customer; polling has stopped. */
  final: (answer: StatusAnswer) => void;
  /** The schedule gave up. */
  gaveUp: () => void;
  /** `check` changed. */
  changed: () => void;
  /** The first answer that says the server's time (`now`): a resumed countdown reads its expiry against it. */
  timed?: ((now: string) => void) | undefined;
};

/**
 * The customer's own check ("I've sent the money"): under way, answered that the payment is not in
 * yet, or could not be made. Polling goes on whatever it was.
 */
export type PaidCheck = 'checking' | 'pending' | 'failed' | undefined;

export type Poll = {
  /** Stops asking, aborting a look-up in flight. */
  stop(): void;
  /**
   * Asks now with `recheck=1` (the customer says they have paid); resolves to what `check` became,
   * undefined when the answer ended the wait or polling stopped. Ignored while such a check is out.
   */
  recheck(): Promise<PaidCheck>;
  readonly check: PaidCheck;
};

/**
 * Starts asking about the payment `order` charges (`atOnce`: the first look-up now, as for a resumed
 * payment); returns the handle that stops it or asks at once.
 */
export function pollStatus(
  statusUrl: string,
  query: StatusQuery,
  order: Order | undefined,
  handlers: PollHandlers,
  atOnce = false,
): Poll {
  const started = Date.now();
  const giveUpAfter = pollingTime(order);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts look-ups: only the latest one's answer moves the schedule on. */
  let latest = 0;

  const schedule = () => {
    const elapsed = Date.now() - started;
    if (elapsed >= giveUpAfter) return handlers.gaveUp();
    timer = setTimeout(() => void check(false), nextPollDelay(elapsed));
  };
  const check = async (recheck: boolean): Promise<PaidCheck> => {
    clearTimeout(timer);
    const mine = ++latest;
    let answer: StatusAnswer | undefined;
    try {
      answer = await fetchStatus(statusUrl, query, {
        signal: controller.signal,
        timeoutMs: STATUS_TIMEOUT_MS,
        recheck,
      });
    } catch {
      // A failed look-up is not an answer: keep asking until the schedule gives up.
    }
    if (controller.signal.aborted) return undefined;
    if (answer?.now && Date.parse(answer.now) > 0 && handlers.timed) {
      handlers.timed(answer.now);
      handlers.timed = undefined;
    }
    if (answer && (answer.status !== 'PENDING' || answer.review)) {
      handlers.final(answer);
      return undefined;
    }
    if (recheck) setCheck(answer ? 'pending' : 'failed');
    if (mine === latest) schedule();
    return poll.check;
  };
  const poll: { -readonly [K in keyof Poll]: Poll[K] } = {
    check: undefined,
    stop() {
      clearTimeout(timer);
      controller.abort();
    },
    async recheck() {
      if (poll.check === 'checking') return poll.check;
      setCheck('checking');
      return check(true);
    },
  };
  const setCheck = (check: PaidCheck) => {
    poll.check = check;
    handlers.changed();
  };
  if (atOnce) void check(false);
  else schedule();
  return poll;
}
