// How long a result screen has waited for the payment: a tick once a second that redraws it, the
// 10-minute mark after which the screen says what to do, and, on a transfer's screen, the account's
// countdown (countdown.ts, which comes with the transfer screen's file): its time left for the
// screen, and what the live region says of it at each tick.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { clock } from './clock.js';
import type { Countdown } from './countdown.js';
import type { FlowState } from './flow.js';
import type { Messages } from './messages/index.js';

const SECOND = 1_000;

/** After this long without an answer, the screen says not to pay again and what to give the shop. */
const LONG_WAIT_MS = 10 * 60 * SECOND;

export class WaitController implements ReactiveController {
  /** The payment the screen waits for: its reference, while a USSD or transfer screen shows. */
  private waitingFor: string | undefined;
  private startedAt = 0;
  private now = 0;
  private stopTicking: (() => void) | undefined;
  private countdown: Countdown | undefined;

  /**
   * `flow` and `strings` are read as they are now at each update and tick (the payment controller and
   * the locale controller); `announce` says a text in the element's live region; `transfer`, the
   * transfer screen's file once it has loaded, makes the countdown.
   */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly flow: { readonly state: FlowState },
    private readonly strings: { readonly messages: Messages },
    private readonly announce: (text: string) => void,
    private readonly transfer: () => { Countdown: typeof Countdown } | undefined,
  ) {
    host.addController(this);
    this.hostUpdate();
  }

  /** Time left on the transfer account, 0 once it has run out; undefined when the server gave no expiry. */
  get remainingMs(): number | undefined {
    const { state } = this.flow;
    if (state.kind !== 'transfer') return undefined;
    const Countdown = this.transfer()?.Countdown;
    return Countdown && (this.countdown ??= new Countdown()).left(state.order, this.now);
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
    this.now = clock.now(); // a new order's countdown is read from now
    const { state } = this.flow;
    const waitingFor =
      state.kind === 'ussd' || state.kind === 'transfer' ? state.instructions.paymentReference : undefined;
    if (waitingFor === this.waitingFor) return;
    this.hostDisconnected();
    this.waitingFor = waitingFor;
    if (!waitingFor) return;
    this.startedAt = this.now;
    this.startTicking();
  }

  private startTicking(): void {
    this.stopTicking ??= clock.every(SECOND, () => this.tick());
  }

  /**
   * Redraws once a second: the countdown and the long-wait line follow the clock (Lit redraws only
   * what changed). The countdown is spoken at its first tick, after the screen's own announcement.
   */
  private tick(): void {
    this.now = clock.now();
    const left = this.remainingMs;
    const said = left === undefined ? undefined : this.countdown!.speech(this.strings.messages, left);
    if (said) this.announce(said);
    this.host.requestUpdate();
  }
}
