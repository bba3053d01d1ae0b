// The transfer account's countdown, in the transfer screen's file: when the account runs out, on the
// server's clock (the time left as the server measured it, `expiresInMs`, counted from the moment
// the widget got it on the monotonic clock of clock.ts; `expiresAt` against the phone's own clock
// only for a back end that sends nothing better), as the screen shows it, and as the live region
// says it at a calm pace: when it starts, every 5 minutes while plenty is left, each minute in the
// last five, at 30 seconds, and when it runs out; never every second. wait-controller.ts ticks it.
import { format, type Messages } from './messages/index.js';
import type { Order } from '../contract/schemas.js';

const SECOND = 1_000;
const MINUTE = 60_000;

/** `ms` as a countdown shows it, rounded up to the second: `29:41`, `1:05:00`. */
export function countdownText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / SECOND));
  const hms = [seconds / 3_600, (seconds / 60) % 60, seconds % 60]
    .map((n) => String(Math.floor(n)).padStart(2, '0'))
    .join(':');
  return hms.replace(/^(00:)?0?/, ''); // 00:29:41 → 29:41, 00:05:03 → 5:03, 01:05:00 → 1:05:00
}

/**
 * Where the spoken countdown stands for `left` ms: the last mark passed (every 5 minutes above 5
 * minutes left, every minute down to one, then 30 seconds, then 0). A new mark is spoken once.
 */
export function spokenMark(left: number): number {
  const step = left > 5 * MINUTE ? 5 * MINUTE : left > MINUTE ? MINUTE : 30 * SECOND;
  return Math.ceil(left / step) * step;
}

/**
 * The time left as the live region says it: in minutes, in seconds under a minute, or closed (the screen's heading and
 * text).
 */
export function timeLeftText(m: Messages, left: number): string {
  const minutes = Math.ceil(left / MINUTE);
  if (left <= 0) return `${m.accountClosed}. ${m.accountExpired}`;
  if (left <= 30 * SECOND) return format(m.secondsLeft, { seconds: String(Math.ceil(left / SECOND)) });
  return minutes === 1 ? m.oneMinuteLeft : format(m.minutesLeft, { minutes: String(minutes) });
}

/**
 * The transfer account's time left when its order is first seen: as the server measured it, else
 * `expiresAt` against the phone's clock (a hand-written back end that sends only that); undefined
 * without an expiry.
 */
export function timeLeftOf(order: Order | undefined): number | undefined {
  if (!order?.expiresAt) return undefined;
  return order.expiresInMs ?? Date.parse(order.expiresAt) - Date.now();
}

/**
 * A resumed transfer's order, its time left read against the server's `now` (a status answer's) instead of the phone's
 * clock.
 */
export function orderAt(order: Order | undefined, now: string): Order | undefined {
  return order?.expiresAt
    ? { ...order, expiresInMs: Math.max(0, Date.parse(order.expiresAt) - Date.parse(now)) }
    : order;
}

/**
 * One widget's countdown: read from each new order (a new account, or a resumed one corrected by the server's clock).
 */
export class Countdown {
  private order: Order | undefined;
  /** When the account runs out, on the monotonic clock. */
  private runsOutAt: number | undefined;
  /** How far the phone's clock was ahead of the monotonic one at the last reading. */
  private wallAhead = 0;
  /** The last mark spoken (`spokenMark`). */
  private spoken: number | undefined;

  /**
   * The time left on `order`'s account at `now` (clock.ts), 0 once it has run out; undefined without
   * an expiry. The monotonic clock stops while the phone sleeps (everywhere but Windows: hr-time
   * issue 115), so a customer who locked the phone meanwhile would see minutes that have gone: when
   * the phone's clock has moved more than a second further than it since the last reading, that
   * time is taken off. (A phone clock set forward while the page is open counts the same: rarer than
   * a locked phone, and it errs towards paying sooner, not after the account has run out.)
   */
  left(order: Order | undefined, now: number): number | undefined {
    const wallAhead = Date.now() - now;
    const slept = wallAhead - this.wallAhead;
    this.wallAhead = wallAhead;
    if (order !== this.order) {
      this.order = order;
      this.spoken = undefined;
      const left = timeLeftOf(order);
      this.runsOutAt = left === undefined || Number.isNaN(left) ? undefined : now + left;
    } else if (this.runsOutAt !== undefined && slept > SECOND) {
      this.runsOutAt -= slept;
    }
    return this.runsOutAt === undefined ? undefined : Math.max(0, this.runsOutAt - now);
  }

  /** What the live region says with `left` ms left: at the first reading, then once at each mark it passes. */
  speech(m: Messages, left: number): string | undefined {
    const mark = spokenMark(left);
    if (this.spoken !== undefined && mark >= this.spoken) return undefined;
    this.spoken = mark;
    return timeLeftText(m, left);
  }
}
