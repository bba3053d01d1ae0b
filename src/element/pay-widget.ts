// The <pay-widget> element: its properties, the controllers that hold its logic, `submit` and
// `reset`, and one `render` that picks the screen's template. The result screens come with what runs
// after a submit, a transfer's in a file of its own (loading/for-payment.ts), there by the time they show.
import { html, isServer, LitElement, type PropertyValues, type TemplateResult } from 'lit';
import { announcements } from './announcements.js';
import { DEFAULT_BANKS, type Bank } from './banks.js';
import type { Initiate } from './client.js';
import { emit } from './events.js';
import { FormController } from './form-controller.js';
import { formatAmount } from './format-amount.js';
import { afterSubmit, prefetchTransferScreen, transferScreen } from './loading/for-payment.js';
import { LocaleController } from './locale-controller.js';
import type { Messages } from './messages/index.js';
import { PaymentController } from './payment-controller.js';
import { resultScreens, type ResultScreens } from './result-screens.js';
import { warmUpResultScreens } from './result-warm-up.js';
import { ScreenChangeController } from './screen-change-controller.js';
import { styles } from './pay-widget.styles.js';
import { fieldsFor, offeredTypes, sessionRequest, text } from './session-request.js';
import type { CustomerField, PaymentType } from '../contract/rules.js';
import type { Order, SessionRequest } from '../contract/schemas.js';
import { errorTemplate, failureText } from './templates/error.js';
import { formTemplate, type FormActions } from './templates/form.js';
import type { ResultView } from './templates/parts.js';

/**
 * Accepts a payment by USSD or bank transfer through the merchant's session endpoint.
 *
 * The script tag loads its other files from beside its `src`, or from the folder named in the script's
 * `data-files-url` (needed when the script's text is pasted inline: `<script data-files-url="…/dist/">`).
 *
 * @fires {CustomEvent<PayReadyDetail>} pay-ready - First render done.
 * @fires {CustomEvent<PayTypeChangeDetail>} pay-type-change - The customer picked USSD or TRANSFER.
 * @fires {CustomEvent<PaySubmitDetail>} pay-submit - Before the request; cancelable.
 * @fires {CustomEvent<PayInitiatedDetail>} pay-initiated - The gateway returned the dial code or the account.
 * @fires {CustomEvent<PayCopyDetail>} pay-copy - A value was copied.
 * @fires {CustomEvent<PayCompleteDetail>} pay-complete - `status-url` reported SUCCESS or FAILED, or a reason to tell
 * the customer.
 * @fires {CustomEvent<PayErrorDetail>} pay-error - Anything failed; `detail.code`: validation, network, timeout, http,
 * gateway, invalid-response, config, or setup (a file of the script tag's is not served beside it: serve the whole
 * dist/ folder; or, inlined, the script has no `data-files-url`).
 * @fires {CustomEvent<PayResetDetail>} pay-reset - Back to the form.
 * @fires {CustomEvent<PayResumedDetail>} pay-resumed - An attempt kept from before a reload shows again (`resume`).
 *
 * @slot header - Above the form and the results.
 * @slot footer - Below them.
 *
 * @csspart form - The form.
 * @csspart type-option - Each payment-type choice.
 * @csspart field - A label, its control and its error.
 * @csspart label - A field's label.
 * @csspart input - A text input or the bank list.
 * @csspart error - A field's error message.
 * @csspart submit - The pay button.
 * @csspart result - The instructions, error or completion screen.
 * @csspart dial-code - The USSD code.
 * @csspart account-number - The account to transfer to.
 * @csspart copy-button - Each copy button.
 * @csspart status - The "waiting for your payment" line.
 *
 * @cssprop --pay-widget-font
 * @cssprop --pay-widget-color-text
 * @cssprop --pay-widget-color-muted
 * @cssprop --pay-widget-color-background
 * @cssprop --pay-widget-color-subtle
 * @cssprop --pay-widget-color-border
 * @cssprop --pay-widget-color-accent
 * @cssprop --pay-widget-color-on-accent
 * @cssprop --pay-widget-color-error
 * @cssprop --pay-widget-color-success
 * @cssprop --pay-widget-radius
 * @cssprop --pay-widget-spacing
 * @cssprop --pay-widget-max-width
 */
export class PayWidget extends LitElement {
  static override styles = styles;
  /**
   * Lit's reactive properties, declared here rather than with `@property()` / `@state()`: the
   * decorators' runtime helpers alone cost about 400 B of the script tag's 16 KB gzip budget.
   * Multi-word properties get an explicit kebab-case attribute; the fields below hold the defaults.
   */
  static override properties = {
    sessionUrl: { attribute: 'session-url' },
    statusUrl: { attribute: 'status-url' },
    amount: {},
    currency: {},
    country: {},
    paymentTypes: { attribute: 'payment-types' },
    paymentType: { attribute: 'payment-type' },
    fullName: { attribute: 'full-name' },
    email: {},
    mobileNumber: { attribute: 'mobile-number' },
    paymentReference: { attribute: 'payment-reference' },
    locale: {},
    timeout: { type: Number },
    disabled: { type: Boolean, reflect: true },
    colorScheme: { attribute: 'color-scheme', reflect: true }, // reflected: the styles read the attribute
    resume: {},
    banks: { attribute: false }, // this and the next two: properties only
    messages: { attribute: false },
    initiate: { attribute: false },
  };
  /** `el.focus()`, and a label pointing at the element, land on its first control. */
  static override shadowRootOptions: ShadowRootInit = { ...LitElement.shadowRootOptions, delegatesFocus: true };

  sessionUrl = '';
  statusUrl = '';
  /** A string, or a number as frameworks pass it (`:amount="5000"`). */
  amount: string | number = '';
  currency = 'NGN';
  country = 'NG';
  /** Space-separated, or an array as frameworks pass it. */
  paymentTypes: string | readonly string[] = 'USSD TRANSFER';
  paymentType = '';
  fullName = '';
  email = '';
  mobileNumber = '';
  paymentReference = '';
  /** Unset: the page's language (the nearest `lang` around the element), else English. */
  locale = '';
  timeout: number | string = 30_000;
  disabled = false;
  colorScheme?: 'light' | 'dark' | 'auto'; // forced; unset or `auto`: the page's (pay-widget.styles.ts)
  resume: 'on' | 'off' | '' = ''; // `off`: a reload shows the form, not the attempt kept in sessionStorage (resume.ts)
  banks: readonly Bank[] = DEFAULT_BANKS;
  messages: Partial<Messages> = {};
  initiate: Initiate | undefined;

  private readonly localization = new LocaleController(this, () => ({
    locale: text(this.locale),
    messages: this.messages,
  }));
  private readonly payment = new PaymentController(this, () => ({
    initiate: this.initiate,
    sessionUrl: this.sessionUrl || undefined,
    timeoutMs: Number(this.timeout) > 0 ? Number(this.timeout) : 30_000,
    statusUrl: this.statusUrl || undefined,
    describe: (failure) =>
      (failure.says ? undefined : failure.message) ?? failureText(this.localization.messages, failure),
    onShow: () => this.onShow(),
    keep:
      this.resume === 'off'
        ? undefined
        : `${this.sessionUrl} ${text(this.paymentReference)} ${text(this.amount)} ${text(this.currency)}`,
  }));
  private readonly form = new FormController(this, () => ({
    messages: this.localization.messages,
    fields: fieldsFor(this.selectedType),
  }));
  /** The live region, and the focus once another screen has drawn. */
  private readonly screenChange = new ScreenChangeController(this);
  /** What the result screens are given: made with the first one, from what runs after a submit. */
  private results: ResultScreens | undefined;

  private readonly formActions: FormActions = {
    submit: (event) => {
      this.submit();
      event.preventDefault();
    },
    typeChange: (event) => {
      this.paymentType = (event.target as HTMLInputElement).value;
      if (event.type === 'click') this.screenChange.focus = 'first'; // "Pay by bank transfer instead" goes
      emit(this, 'pay-type-change', { paymentType: this.selectedType });
    },
    input: (event) => {
      const { name, value } = event.target as HTMLInputElement | HTMLSelectElement;
      this.form.input(name as CustomerField, value, event.target instanceof HTMLSelectElement);
    },
    blur: (event) => this.form.leave((event.target as HTMLInputElement).name as CustomerField),
    bankSearch: (event) => this.form.search((event.target as HTMLInputElement).value, this.banks),
  };

  /** The payment types on offer (USSD first), unknown names ignored. */
  get offeredTypes(): PaymentType[] {
    return offeredTypes(this.paymentTypes);
  }

  /** The chosen payment type: `payment-type` when it is on offer, else the first offered. */
  get selectedType(): PaymentType {
    const offered = this.offeredTypes;
    return offered.find((type) => type === text(this.paymentType).toUpperCase()) ?? offered[0]!;
  }

  /** Submits the form: checks every field, then posts to `session-url` (or calls `initiate`). */
  submit(): void {
    if (this.disabled || this.payment.state.kind !== 'form') return;
    const invalid = this.form.submit();
    if (invalid) {
      void this.screenChange.announce(this.localization.messages.fixFields);
      this.screenChange.focus = 'invalid';
      emit(this, 'pay-error', {
        paymentType: this.selectedType,
        code: 'validation',
        message: invalid.message,
        retryable: false,
      });
      return;
    }
    this.payment.submit(sessionRequest(this.selectedType, this.form.values, this));
  }

  /**
   * Back to the form for a new payment; typed values stay (after a reload, the resumed attempt's bank), the next submit
   * is a new attempt.
   */
  reset(): void {
    this.form.backFrom((this.payment.state as { request?: SessionRequest }).request);
    this.form.reset();
    this.payment.reset(this.selectedType);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    for (const field of ['fullName', 'email', 'mobileNumber'] as const)
      if (changed.has(field)) this.form.prefill(field, text(this[field]));
    // Lit SSR runs willUpdate and render, not hostUpdate: else a server ignores `locale` and prefilled fields' errors.
    if (isServer) for (const controller of [this.localization, this.payment, this.form]) controller.hostUpdate();
  }

  protected override firstUpdated(): void {
    emit(this, 'pay-ready', { paymentType: this.selectedType });
    warmUpResultScreens(this.renderRoot, () =>
      this.payment.state.kind === 'form'
        ? afterSubmit()!.screensToWarmUp(this.resultView(), transferScreen())
        : undefined,
    );
  }

  protected override updated(): void {
    if (this.selectedType === 'TRANSFER' && afterSubmit()) prefetchTransferScreen();
  }

  protected override render(): TemplateResult {
    const m = this.localization.messages;
    const { banks, disabled } = this;
    const { values, shown: errors, bankQuery } = this.form;
    const amount = this.money(text(this.amount), text(this.currency));
    const screen = this.payment.render({
      form: (busy) =>
        formTemplate(
          {
            messages: m,
            amount,
            offered: this.offeredTypes,
            selected: this.selectedType,
            busy,
            disabled,
            values,
            errors,
            banks,
            bankQuery,
          },
          this.formActions,
        ),
      // Past the form and the error screen, the initiation has loaded what runs after a submit.
      ussd: (state) => afterSubmit()!.ussdTemplate(this.resultView(), state),
      transfer: (state) => transferScreen()!.transferTemplate(this.resultView(), state),
      complete: (state) => afterSubmit()!.completeTemplate(this.resultView(), state),
      error: ({ failure }) => errorTemplate(m, failure, this.payment),
    });
    return html`
      <slot name="header"></slot>
      <div lang=${this.localization.lang}>
        ${screen}
        <p class="sr-only" role="status">${
          this.screenChange.said ??
          this.payment.render(announcements(m, this.charged, this.results?.wait.remainingMs === 0))
        }</p>
      </div>
      <slot name="footer"></slot>
    `;
  }

  /** What the result screens are given; the first one makes their controllers (result-screens.ts). */
  private resultView(): ResultView {
    this.results ??= resultScreens(this, this.payment, this.localization, this.form, this.screenChange, this.charged);
    return this.results.view();
  }

  /** Another screen shows: it is announced, its copy buttons start fresh, and the focus follows. */
  private onShow(): void {
    const { state, shown } = this.payment;
    this.results?.copies.clear();
    if (state.kind === 'error') {
      this.form.backFrom(state.request, state.failure.fields);
      // Edit details: the type it was sent with, as its fields (a resumed attempt's too).
      this.paymentType = state.request.paymentType;
    }
    this.screenChange.shown(shown, shown === 'form' && this.form.hasRefusals());
  }

  /** What the server charges, formatted; '' when its answer did not say (never the page's guess). */
  private readonly charged = (order: Order | undefined): string =>
    order ? this.money(order.amount, order.currency) : '';

  /** An amount in the widget's language and `country`. */
  private readonly money = (amount: string, currency: string): string =>
    formatAmount(amount, currency, this.localization.lang, text(this.country));
}
