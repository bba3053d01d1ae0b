// How long a result screen has waited for the payment: the transfer account's countdown to its
// `expiresAt` (redrawn once a second), its expiry, and the 10-minute mark after which the screen says
// what to do. The countdown is spoken sparingly, through the element's live region: when it starts,
// at 5 minutes and at 1 minute left, and when it runs out. Times come from clock.ts.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { clock } from './clock.js';
import type { FlowState } from './flow.js';
import { format, type Messages } from './messages/index.js';

const SECOND = 1_000;
const MINUTE = 60_000;

/** After this long without an answer, the screen says not to pay again and what to give the shop. */
const LONG_WAIT_MS = 10 * MINUTE;

/** Time left at which the countdown is spoken, besides its start and its end. */
const SPOKEN_AT = [5 * MINUTE, MINUTE];

/** `ms` as a countdown shows it, rounded up to the second: `29:41`, `1:05:00`. */
export function countdownText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / SECOND));
  const hms = [seconds / 3_600, (seconds / 60) % 60, seconds % 60].map((n) => String(Math.floor(n)).padStart(2, '0')).join(':');
  return hms.replace(/^(00:)?0?/, ''); // 00:29:41 → 29:41, 00:05:03 → 5:03, 01:05:00 → 1:05:00
}

export class WaitController implements ReactiveController {
  /** The payment the screen waits for: its reference, while a USSD or transfer screen shows. */
  private waitingFor: string | undefined;
  private startedAt = 0;
  private expiresAt: number | undefined;
  private now = 0;
  private stopTicking: (() => void) | undefined;
  /** How far the countdown has been spoken: SPOKEN_AT's index + 1, SPOKEN_AT.length + 1 once run out. */
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
    const waitingFor = state.kind === 'ussd' || state.kind === 'transfer' ? state.instructions.paymentReference : undefined;
    if (waitingFor === this.waitingFor) return;
    this.hostDisconnected();
    this.waitingFor = waitingFor;
    if (!waitingFor) return;
    this.now = this.startedAt = clock.now();
    const expiresAt = Date.parse((state.kind === 'transfer' && state.order?.expiresAt) || '');
    this.expiresAt = Number.isNaN(expiresAt) ? undefined : expiresAt;
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
    const stage = left === 0 ? SPOKEN_AT.length + 1 : SPOKEN_AT.filter((at) => left <= at).length;
    if (stage === this.spoken) return;
    this.spoken = stage;
    const m = this.strings.messages;
    const minutes = Math.ceil(left / MINUTE);
    this.announce(left === 0 ? m.accountExpired : minutes === 1 ? m.oneMinuteLeft : format(m.minutesLeft, { minutes: String(minutes) }));
  }
}
