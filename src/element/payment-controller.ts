// Drives the flow machine for an element: runs the initiation, keeps the idempotency key of the
// current attempt, polls `status-url`, fires the asynchronous events, and decides which screen shows
// (`render`): a submit leaves the form as it is for BUSY_AFTER_MS before it shows busy. The element
// only renders the screens and forwards the customer's actions. It keeps the attempt in
// sessionStorage once the gateway gave instructions and shows it again after a reload (resume.ts).
// The client, the poller and the resume come with what runs after a submit (loading/for-payment.ts),
// which it starts loading once connected (at once when there is an attempt to resume).
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { emit, type PayAmount } from './events.js';
import {
  initialState,
  paymentReferenceOf,
  transition,
  type FlowEvent,
  type FlowState,
  type PayFailure,
  type StateOf,
} from './flow.js';
import { initiate, newIdempotencyKey, type Initiation } from './initiation.js';
import { forgetAttempt } from './forget-attempt.js';
import { recallKept } from './recall-kept.js';
import { afterSubmit, prefetchAfterSubmit, transferScreen } from './loading/for-payment.js';
import type { Instructions, Order, PaymentType, SessionRequest } from '../contract/schemas.js';
import type { Poll, PollHandlers } from './status-poller.js';
import { statusUrlOf, type Endpoints } from './status-url.js';

export type PaymentHost = ReactiveControllerHost & HTMLElement;

export type PaymentConfig = Initiation &
  Endpoints & {
    /** The customer-facing text for a failure, as `pay-error` reports it. */
    describe: (failure: PayFailure) => string;
    /** Called in the host's update when another screen shows (`shown` has changed). */
    onShow: () => void;
    /**
     * What names this widget's kept attempt besides the page (its `session-url` and hints); undefined: nothing is
     * kept (`resume="off"`).
     */
    keep: string | undefined;
  };

/** The screens, one function each, as `render` takes them. */
export type Screens<T> = {
  /** The form; `busy` once a submit has been waiting longer than BUSY_AFTER_MS. */
  form: (busy: boolean) => T;
} & { [K in Exclude<FlowState['kind'], 'form' | 'submitting'>]: (state: StateOf<K>) => T };

/**
 * How long the form stays as it is after a submit before it shows that it is busy. A quick answer
 * goes straight to its result, with no spinner flashing by and no frame spent drawing one: under
 * about 0.1 s a response feels instantaneous and needs no indicator. A second submit meanwhile is
 * ignored by the flow machine, and the request already holds what was typed.
 */
const BUSY_AFTER_MS = 100;

/** The amount and currency an event reports: the server's, or none. */
function chargeOf(order: Order | undefined): PayAmount {
  return order ? { amount: order.amount, currency: order.currency } : {};
}

export class PaymentController implements ReactiveController {
  state: FlowState = initialState;
  /** The state shown: `form` while a submit is held (BUSY_AFTER_MS), else the state's kind. */
  shown: FlowState['kind'] = initialState.kind;

  /** The key of the current attempt and the body it was sent with: a retry of the same body reuses it. */
  private attempt: { key: string; body: string } | undefined;
  private inFlight: AbortController | undefined;
  /** The polling under way: stops it, or asks at once ("I've sent the money"). */
  poll: Poll | undefined;
  /** Cancels the load of what runs after a submit, while it waits for the page to be idle. */
  private cancelPrefetch: (() => void) | undefined;
  /** Set for BUSY_AFTER_MS after a submit from the form, while the form is still shown as it was. */
  private holdingForm: ReturnType<typeof setTimeout> | undefined;
  /** Whether the look for a kept attempt was made (once, before the first render). */
  private recalled = false;
  /** The host's place among its page's widgets when first asked (keptName). */
  private place: number | undefined;

  constructor(
    private readonly host: PaymentHost,
    private readonly config: () => PaymentConfig,
  ) {
    host.addController(this);
  }

  /** Whether `status-url` is being asked; false once it answered, gave up, or was never set. */
  get polling(): boolean {
    return this.poll !== undefined;
  }

  /** Picks up where a move in the DOM left off: the same attempt, so the same idempotency key. */
  hostConnected(): void {
    this.cancelPrefetch = prefetchAfterSubmit(this.host);
    if (this.state.kind === 'submitting' && !this.inFlight) void this.run(this.state.request);
    if ((this.state.kind === 'ussd' || this.state.kind === 'transfer') && !this.poll) {
      this.startPolling(this.state.instructions, this.state.order);
    }
  }

  hostDisconnected(): void {
    this.cancelPrefetch?.();
    this.stopWork();
  }

  hostUpdate(): void {
    if (!this.recalled) {
      this.recalled = true;
      recallKept(this, () => this.keptName());
    }
    const { kind } = this.state;
    const shown = kind === 'submitting' && this.holdingForm ? 'form' : kind;
    if (shown === this.shown) return;
    this.shown = shown;
    clearTimeout(this.holdingForm);
    this.holdingForm = undefined;
    this.config().onShow();
  }

  /** The screen for the state shown, as `@lit/task`'s `render` does for a task's status. */
  render<T>(screens: Screens<T>): T {
    const { state } = this;
    if (state.kind === 'form' || state.kind === 'submitting') return screens.form(this.shown === 'submitting');
    return (screens[state.kind] as (state: FlowState) => T)(state);
  }

  /** Fires the cancelable `pay-submit`, then initiates, holding the form as it is for BUSY_AFTER_MS. */
  submit(request: SessionRequest): void {
    if (this.state.kind !== 'form') return;
    if (!emit(this.host, 'pay-submit', { paymentType: request.paymentType, request }, true)) return;
    // A listener may have submitted or reset meanwhile: only the move that still applies goes out.
    if (!this.apply({ type: 'submit', request })) return;
    const body = JSON.stringify(request);
    if (this.attempt?.body !== body) this.attempt = { key: newIdempotencyKey(), body };
    clearTimeout(this.holdingForm);
    this.holdingForm = setTimeout(() => {
      this.holdingForm = undefined;
      this.host.requestUpdate();
    }, BUSY_AFTER_MS);
    void this.run(request);
  }

  retry(): void {
    if (this.state.kind !== 'error') return;
    const { request } = this.state;
    if (this.apply({ type: 'retry' })) void this.run(request);
  }

  /** Back to the form after a failure, keeping the attempt: an unchanged resubmit is still a retry. */
  edit(): void {
    if (this.state.kind !== 'error') return;
    const { paymentType } = this.state.request;
    this.apply({ type: 'edit' });
    emit(this.host, 'pay-reset', { paymentType });
  }

  /** Back to the form for a new payment: work stops and the next submit gets a new idempotency key. */
  reset(paymentType: PaymentType): void {
    this.stopWork();
    this.attempt = undefined;
    // The kept attempt is forgotten (one still loading then finds nothing to show).
    this.recalled = true;
    const name = this.keptName();
    if (name) forgetAttempt(name);
    if (this.state.kind === 'form') return;
    const paymentReference = paymentReferenceOf(this.state);
    this.apply({ type: 'reset' });
    emit(this.host, 'pay-reset', { paymentType, paymentReference });
  }

  /**
   * A new attempt with the request the shown one started with (a transfer's new account); the form, for one kept
   * without the customer (resume.ts).
   */
  renew(): void {
    const { request } = this.state as StateOf<'transfer'>;
    this.reset(request.paymentType);
    if ('fullName' in request) this.submit(request);
  }

  /** Shows an attempt kept before a reload (resume.ts), only from the form: its screen, `pay-resumed`, its status. */
  resumed(state: StateOf<'ussd' | 'transfer'>, key: string): void {
    if (!this.apply({ type: 'resumed', state })) return;
    this.attempt = { key, body: '' };
    const { instructions, order } = state;
    emit(this.host, 'pay-resumed', {
      paymentType: instructions.paymentType,
      paymentReference: instructions.paymentReference,
      ...chargeOf(order),
    });
    this.startPolling(instructions, order, true);
  }

  /**
   * Where the attempt is kept in `sessionStorage`: this page, the widget's `keep` and `id`, else its place among
   * the page's widgets (as first seen), so that identical widgets keep one each; undefined with `resume="off"`.
   */
  private keptName(): string | undefined {
    const { keep } = this.config();
    const { host } = this;
    this.place ??= [...(host.getRootNode() as ParentNode).querySelectorAll(host.localName)].indexOf(host);
    return keep === undefined ? undefined : `pay-widget ${location.pathname} ${keep} ${host.id || this.place}`;
  }

  /** Returns whether the event moved the flow. */
  private apply(event: FlowEvent): boolean {
    const next = transition(this.state, event);
    if (next === this.state) return false;
    this.state = next;
    this.host.requestUpdate();
    return true;
  }

  private async run(request: SessionRequest): Promise<void> {
    const controller = new AbortController();
    this.inFlight = controller;
    const event = await initiate(this.config(), request, this.attempt!.key, controller.signal);
    // A reset or a disconnect while the request was out means nobody is waiting for its answer.
    if (controller.signal.aborted) return;
    this.inFlight = undefined;
    if (!this.apply(event)) return;

    if (event.type === 'initiated') {
      // Kept and polling first, so that a listener calling reset() forgets and stops them.
      const name = this.keptName();
      if (name && this.attempt)
        afterSubmit()?.keepAttempt(name, this.attempt.key, this.state as StateOf<'ussd' | 'transfer'>);
      this.startPolling(event.instructions, event.order);
      emit(this.host, 'pay-initiated', { ...event.instructions, ...chargeOf(event.order) });
    } else if (event.type === 'failed') {
      const { failure } = event;
      // A final answer (a decline, a refusal) ends the attempt: trying again is a new payment.
      if (!failure.retryable) this.attempt = undefined;
      emit(this.host, 'pay-error', {
        paymentType: request.paymentType,
        code: failure.code,
        message: this.config().describe(failure),
        retryable: failure.retryable,
      });
    }
  }

  /** `resumed`: a kept attempt shown again, asked about at once, its countdown read against the server's clock. */
  private startPolling(
    { paymentType, paymentReference }: Instructions,
    order: Order | undefined,
    resumed = false,
  ): void {
    const statusUrl = statusUrlOf(order, this.config());
    const flow = afterSubmit();
    if (!statusUrl || !flow) return;
    const handlers: PollHandlers = {
      final: ({ status, message, review }) => {
        this.stopPolling();
        if (this.apply({ type: 'completed', status, message, review })) {
          emit(this.host, 'pay-complete', {
            paymentType,
            paymentReference,
            ...chargeOf(order),
            status,
            message,
            ...review,
          });
        }
      },
      gaveUp: () => this.stopPolling(),
      changed: () => this.host.requestUpdate(),
      // Only a transfer's screen, whose file resumeKept() loaded first, takes the server's time.
      timed: resumed ? (now) => this.apply({ type: 'timed', order: transferScreen()?.orderAt(order, now) }) : undefined,
    };
    this.poll = flow.pollStatus(
      statusUrl,
      { paymentReference, statusToken: order?.statusToken },
      order,
      handlers,
      resumed,
    );
  }

  /** Whether the shown payment's status can be asked (status-url.ts says where). */
  get asksStatus(): boolean {
    const { state } = this;
    return statusUrlOf('order' in state ? state.order : undefined, this.config()) !== undefined;
  }

  private stopPolling(): void {
    if (!this.poll) return;
    this.poll.stop();
    this.poll = undefined;
    this.host.requestUpdate();
  }

  private stopWork(): void {
    this.inFlight?.abort();
    this.inFlight = undefined;
    this.stopPolling();
  }
}
