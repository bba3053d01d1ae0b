// How long a result screen has waited for the payment: the transfer account's countdown (redrawn
// once a second), its expiry, and the 10-minute mark after which the screen says what to do. The
// countdown runs on the server's clock: the time left as the server measured it (`expiresInMs`),
// counted from the moment the widget got it on the monotonic clock of clock.ts; `expiresAt`
// against the phone's own clock only for a back end that sends nothing better. It is spoken through
// the element's live region at a calm pace: when it starts, every 5 minutes while plenty is left,
// each minute in the last five, at 30 seconds, and when it runs out; never every second.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { clock } from './clock.js';
import type { FlowState } from './flow.js';
import { format, type Messages } from './messages/index.js';
import type { Order } from '../contract/schemas.js';

const SECOND = 1_000;
const MINUTE = 60_000;

/** After this long without an answer, the screen says not to pay again and what to give the shop. */
const LONG_WAIT_MS = 10 * MINUTE;

/** `ms` as a countdown shows it, rounded up to the second: `29:41`, `1:05:00`. */
export function countdownText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / SECOND));
  const hms = [seconds / 3_600, (seconds / 60) % 60, seconds % 60].map((n) => String(Math.floor(n)).padStart(2, '0')).join(':');
  return hms.replace(/^(00:)?0?/, ''); // 00:29:41 → 29:41, 00:05:03 → 5:03, 01:05:00 → 1:05:00
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
 * Where the spoken countdown stands for `left` ms: the last mark passed (every 5 minutes above 5
 * minutes left, every minute down to one, then 30 seconds, then 0). A new mark is spoken once.
 */
export function spokenMark(left: number): number {
  const step = left > 5 * MINUTE ? 5 * MINUTE : left > MINUTE ? MINUTE : 30 * SECOND;
  return Math.ceil(left / step) * step;
}

/** The time left as the live region says it: in minutes, in seconds under a minute, or run out. */
export function timeLeftText(m: Messages, left: number): string {
  const minutes = Math.ceil(left / MINUTE);
  if (left <= 0) return m.accountExpired;
  if (left <= 30 * SECOND) return format(m.secondsLeft, { seconds: String(Math.ceil(left / SECOND)) });
  return minutes === 1 ? m.oneMinuteLeft : format(m.minutesLeft, { minutes: String(minutes) });
}

export class WaitController implements ReactiveController {
  /** The payment the screen waits for: its reference, while a USSD or transfer screen shows. */
  private waitingFor: string | undefined;
  private startedAt = 0;
  /** The order the countdown was read from: a new one (a resumed screen corrected by the server's clock) is read again. */
  private order: Order | undefined;
  /** When the account runs out, on the monotonic clock. */
  private expiresAt: number | undefined;
  private now = 0;
  private stopTicking: (() => void) | undefined;
  /** The last mark of the countdown spoken (`spokenMark`). */
  private spoken: number | undefined;

  /**
   * `flow` and `strings` are read as they are now at each update and tick (the payment controller and
   * the locale controller); `announce` says a text in the element's live region.
   */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly flow: { readonly state: FlowState },
    private readonly strings: { readonly messages: Messages },
    private readonly announce: (text: string) => void,
  ) {
    host.addController(this);
    this.hostUpdate();
  }

  /** Time left on the transfer account, 0 once it has run out; undefined when the server gave no expiry. */
  get remainingMs(): number | undefined {
    return this.expiresAt === undefined ? undefined : Math.max(0, this.expiresAt - this.now);
  }

  /** Whether the screen has waited LONG_WAIT_MS. */
  get waitedLong(): boolean {
    return this.waitingFor !== undefined && this.now - this.startedAt >= LONG_WAIT_MS;
  }

  hostConnected(): void {
    if (this.waitingFor) this.startTicking();
  }

  hostDisconnected(): void {
    this.stopTicking?.();
    this.stopTicking = undefined;
  }

  /** Follows the flow: a new result screen starts the count, leaving it stops it. */
  hostUpdate(): void {
    const { state } = this.flow;
    const order = state.kind === 'transfer' ? state.order : undefined;
    if (order !== this.order) {
      this.order = order;
      const left = timeLeftOf(order);
      this.now = clock.now();
      this.expiresAt = left === undefined || Number.isNaN(left) ? undefined : this.now + left;
    }
    const waitingFor = state.kind === 'ussd' || state.kind === 'transfer' ? state.instructions.paymentReference : undefined;
    if (waitingFor === this.waitingFor) return;
    this.hostDisconnected();
    this.waitingFor = waitingFor;
    if (!waitingFor) return;
    this.now = this.startedAt = clock.now();
    this.spoken = undefined;
    this.startTicking();
  }

  private startTicking(): void {
    this.stopTicking ??= clock.every(SECOND, () => this.tick());
  }

  /** Redraws once a second: the countdown and the long-wait line follow the clock (Lit redraws only what changed). */
  private tick(): void {
    this.now = clock.now();
    this.speak();
    this.host.requestUpdate();
  }

  /** Speaks the countdown when it starts (at the first tick, after the screen's own announcement) and at each mark it passes. */
  private speak(): void {
    const left = this.remainingMs;
    if (left === undefined) return;
    const mark = spokenMark(left);
    if (this.spoken !== undefined && mark >= this.spoken) return;
    this.spoken = mark;
    this.announce(timeLeftText(this.strings.messages, left));
  }
}
