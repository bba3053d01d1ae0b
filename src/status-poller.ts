// Polls `status-url` after the gateway gave its instructions: about every 2 s, slowing to about
// every 10 s after the first minute, giving up after 30 minutes. Part of what runs after a submit.
import { fetchStatus, type StatusAnswer, type StatusQuery } from './client.js';
import type { FinalStatus } from './rules.js';

const MINUTE = 60_000;

/** About every 2 s, slowing to about 10 s after the first minute, giving up after 30 minutes. */
export function nextPollDelay(elapsedMs: number): number | undefined {
  if (elapsedMs >= 30 * MINUTE) return undefined;
  return elapsedMs < MINUTE ? 2_000 : 10_000;
}

/** A status look-up that hangs is abandoned after this long, so one slow answer cannot stall the schedule. */
const STATUS_TIMEOUT_MS = 15_000;

export type PollHandlers = {
  /** `status-url` said SUCCESS or FAILED; polling has stopped. */
  final: (answer: StatusAnswer & { status: FinalStatus }) => void;
  /** The schedule gave up. */
  gaveUp: () => void;
};

/** Starts asking; returns the function that stops it (also aborting a look-up in flight). */
export function pollStatus(statusUrl: string, query: StatusQuery, handlers: PollHandlers): () => void {
  const started = Date.now();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = () => {
    const delay = nextPollDelay(Date.now() - started);
    if (delay === undefined) return handlers.gaveUp();
    timer = setTimeout(check, delay);
  };
  const check = async () => {
    try {
      const answer = await fetchStatus(statusUrl, query, { signal: controller.signal, timeoutMs: STATUS_TIMEOUT_MS });
      if (controller.signal.aborted) return;
      if (answer.status !== 'PENDING') return handlers.final(answer as StatusAnswer & { status: FinalStatus });
    } catch {
      // A failed look-up is not an answer: keep asking until the schedule gives up.
      if (controller.signal.aborted) return;
    }
    schedule();
  };
  schedule();
  return () => {
    clearTimeout(timer);
    controller.abort();
  };
}
