import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { DEFAULT_BANKS, type Bank } from './banks.js';
import { postSession, type Initiate } from './client.js';
import { emit } from './events.js';
import { paymentReferenceOf, type PayFailure } from './flow.js';
import { format, LocaleController, onDemandLocale, type Messages } from './messages/index.js';
import { FormController } from './form-controller.js';
import { PaymentController } from './payment-controller.js';
import { styles } from './pay-widget.styles.js';
import { FIELD_PATTERNS, normalizeField, PAYMENT_TYPES, type CustomerField, type FinalStatus, type PaymentType } from './rules.js';
import type { Instructions, Order, SessionRequest, TransferInstructions, UssdInstructions } from './schemas.js';

/** A result as the live region says it: `Title: value, value`, leaving out what is unknown. */
const spoken = (title: string, ...values: string[]) => `${title}: ${values.filter(Boolean).join(', ')}`;

/** A property as text, whatever a framework set it to (`5000`, `null`). */
const text = (value: unknown): string => (value == null ? '' : String(value));

/** A BCP 47 language tag such as `fr` or `fr-CI`; not `__proto__`, `constructor` or `toString`. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z\d]{2,8})*$/i;

/** The `lang` of the nearest element around `node` that has one, looking out through shadow roots. */
function pageLanguage(node: Element): string {
  for (let element: Element | undefined = node; element; element = (element.getRootNode() as Partial<ShadowRoot>).host) {
    const marked = element.closest('[lang]');
    if (marked) return marked.getAttribute('lang')!;
  }
  return '';
}

/** One formatter per locale tag and currency: each `new Intl.NumberFormat` costs a few tenths of a millisecond. */
const amountFormats = new Map<string, Intl.NumberFormat>();

function amountFormat(tag: string, currency: string): Intl.NumberFormat {
  const key = `${tag} ${currency}`;
  let formatter = amountFormats.get(key);
  if (!formatter) amountFormats.set(key, (formatter = new Intl.NumberFormat(tag, { style: 'currency', currency })));
  return formatter;
}

/**
 * How long the form stays as it is after a submit before it shows that it is busy. A quick answer
 * goes straight to its result, with no spinner flashing by and no frame spent drawing one: under
 * about 0.1 s a response feels instantaneous and needs no indicator. A second submit meanwhile is
 * ignored by the flow machine, and the request already holds what was typed.
 */
const BUSY_AFTER_MS = 100;

/** How long a copy button says "Copied". */
const COPIED_FOR_MS = 2_000;

/** Banks beyond this many get a search box above the list. */
const SEARCHABLE_BANKS = 6;

/**
 * Accepts a payment by USSD or bank transfer through the merchant's session endpoint.
 *
 * @fires {CustomEvent<PayReadyDetail>} pay-ready - First render done.
 * @fires {CustomEvent<PayTypeChangeDetail>} pay-type-change - The customer picked USSD or TRANSFER.
 * @fires {CustomEvent<PaySubmitDetail>} pay-submit - Before the request; cancelable.
 * @fires {CustomEvent<PayInitiatedDetail>} pay-initiated - The gateway returned the dial code or the account.
 * @fires {CustomEvent<PayCopyDetail>} pay-copy - A value was copied.
 * @fires {CustomEvent<PayCompleteDetail>} pay-complete - `status-url` reported SUCCESS or FAILED.
 * @fires {CustomEvent<PayErrorDetail>} pay-error - Anything failed.
 * @fires {CustomEvent<PayResetDetail>} pay-reset - Back to the form.
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
    // Properties only.
    banks: { attribute: false },
    messages: { attribute: false },
    initiate: { attribute: false },
    // Internal state (`attribute: false` also tells the manifest analyzer).
    bankQuery: { state: true, attribute: false },
    announcement: { state: true, attribute: false },
    copies: { state: true, attribute: false },
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

  banks: readonly Bank[] = DEFAULT_BANKS;
  messages: Partial<Messages> = {};
  initiate: Initiate | undefined;

  private bankQuery = '';
  private announcement = '';
  /** The last copy button pressed, and how its copy went. */
  private copies: Record<string, 'copied' | 'failed'> = {};
  private copiedTimer: ReturnType<typeof setTimeout> | undefined;

  /** The language asked for, the strings of this update and the language they are in: built once per update in willUpdate. */
  private wantedLocale = 'en';
  /** The strings of the wanted locale: English at once, another language once its file has loaded. */
  private readonly translation = new LocaleController(this, () => this.wantedLocale);
  private strings: Messages = this.translation.messages;
  private language = 'en';

  private readonly form = new FormController(this, () => ({ messages: this.strings, fields: this.visibleFields() }));
  private readonly payment = new PaymentController(this, () => {
    const timeout = Number(this.timeout);
    return {
      transport: this.transport(),
      timeoutMs: timeout > 0 ? timeout : 30_000,
      statusUrl: this.statusUrl || undefined,
      describe: (failure) => failure.message ?? this.strings[`error-${failure.code}`],
    };
  });
  private shownKind = this.payment.state.kind;
  /** Set for BUSY_AFTER_MS after a submit from the form, while the form is still shown as it was. */
  private holdingForm: ReturnType<typeof setTimeout> | undefined;
  private focusOnUpdate: 'heading' | 'invalid' | 'first' | undefined;

  /** The payment types on offer (USSD first), unknown names ignored. */
  get offeredTypes(): PaymentType[] {
    const list = this.paymentTypes;
    const wanted = (typeof list === 'string' ? list.split(/\s+/) : [...(list ?? [])]).map((type) => text(type).toUpperCase());
    const offered = PAYMENT_TYPES.filter((type) => wanted.includes(type));
    return offered.length ? offered : [...PAYMENT_TYPES];
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
      void this.announce(this.strings.fixFields);
      this.focusOnUpdate = 'invalid';
      emit(this, 'pay-error', { paymentType: this.selectedType, code: 'validation', message: invalid.message, retryable: false });
      return;
    }
    if (this.payment.submit(this.buildRequest())) this.holdForm();
  }

  /** Back to the form for a new payment; typed values stay, the next submit is a new attempt. */
  reset(): void {
    this.form.reset();
    this.payment.reset(this.selectedType);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const wanted = (this.wantedLocale = this.effectiveLocale());
    const { lang, messages } = this.translation;
    this.strings = { ...messages, ...this.messages };
    // `fr-CI` keeps its region once French has arrived; until then the text is English and says so.
    // A language we ship no file for is the page's own, written in its `messages`.
    this.language = !onDemandLocale(wanted) || lang === onDemandLocale(wanted) ? wanted : lang;
    for (const field of ['fullName', 'email', 'mobileNumber'] as const) {
      if (changed.has(field)) this.form.prefill(field, text(this[field]));
    }
    const { state } = this.payment;
    const kind = state.kind === 'submitting' && this.holdingForm ? 'form' : state.kind;
    if (kind !== this.shownKind) {
      this.shownKind = kind;
      clearTimeout(this.holdingForm);
      this.holdingForm = undefined;
      this.copies = {};
      this.announcement = this.describeState();
      this.focusOnUpdate = kind === 'submitting' ? undefined : kind === 'form' ? 'first' : 'heading';
      if (state.kind === 'error') this.form.refused(state.failure.fields ?? {});
      if (kind === 'form' && this.form.hasRefusals()) this.focusOnUpdate = 'invalid';
      // The busy form disables its controls, which takes the focus off the one that has it either way.
      // Leaving it first spares Chromium a synchronous style and layout pass (about 2 ms) in that fix-up.
      if (kind === 'submitting') (this.shadowRoot?.activeElement as HTMLElement | null)?.blur();
    }
  }

  /**
   * The language the widget speaks: `locale` when it is a language tag, else the page's language
   * around the element (through shadow roots), else English; and English when we have no strings
   * in that language and the page gave none (`messages`). Tags only: `__proto__` and its kind are
   * never looked up.
   */
  private effectiveLocale(): string {
    const wanted = [text(this.locale), pageLanguage(this)].find((tag) => LANGUAGE_TAG.test(tag));
    if (!wanted) return 'en';
    const known = onDemandLocale(wanted) !== undefined || /^en\b/i.test(wanted);
    return known || Object.keys(this.messages ?? {}).length ? wanted : 'en';
  }

  protected override firstUpdated(): void {
    emit(this, 'pay-ready', { paymentType: this.selectedType });
  }

  protected override updated(): void {
    const target = this.focusOnUpdate;
    if (!target) return;
    this.focusOnUpdate = undefined;
    // Follow the customer, but never pull focus away from the page when the page itself called reset().
    const active = document.activeElement;
    if (active && active !== document.body && !this.contains(active) && active !== this) return;
    const root = this.renderRoot;
    const first = 'input:checked, input:not([type=radio])';
    const selector = { heading: 'h2', invalid: '[aria-invalid="true"]', first }[target];
    (root.querySelector<HTMLElement>(selector) ?? root.querySelector<HTMLElement>(first))?.focus();
  }

  protected override render(): TemplateResult {
    const { state } = this.payment;
    let body: TemplateResult;
    switch (state.kind) {
      case 'form':
      case 'submitting':
        body = this.renderForm(this.shownKind === 'submitting');
        break;
      case 'ussd':
        body = this.renderUssd(state.instructions, state.request, state.order);
        break;
      case 'transfer':
        body = this.renderTransfer(state.instructions, state.order);
        break;
      case 'complete':
        body = this.renderComplete(state.status, state.message, state.instructions, state.order);
        break;
      case 'error':
        body = this.renderError(state.failure);
        break;
    }
    return html`
      <slot name="header"></slot>
      <div lang=${this.language}>
        ${body}
        <p class="sr-only" role="status">${this.announcement}</p>
      </div>
      <slot name="footer"></slot>
    `;
  }

  private renderForm(busy: boolean): TemplateResult {
    const m = this.strings;
    const amount = this.formattedAmount(text(this.amount), text(this.currency));
    const type = this.selectedType;
    const offered = this.offeredTypes;
    return html`
      <form part="form" novalidate @submit=${this.onSubmit} aria-busy=${busy}>
        ${amount ? html`<p><span class="muted">${m.amountDue}</span><br /><span class="amount">${amount}</span></p>` : nothing}
        <fieldset ?disabled=${busy || this.disabled}>
          ${offered.length > 1
            ? html`<fieldset class="types-group">
                <legend>${m.chooseType}</legend>
                <div class="types">
                  ${offered.map(
                    (option) => html`<label part="type-option">
                      <input
                        type="radio"
                        name="paymentType"
                        value=${option}
                        .checked=${option === type}
                        @change=${this.onTypeChange}
                      /><span>${m[option]}<small>${m[`${option}Hint`]}</small></span>
                    </label>`,
                  )}
                </div>
              </fieldset>`
            : nothing}
          ${this.renderInput('fullName', 'text', 'name', 'text')}
          ${this.renderInput('email', 'email', 'email', 'email')}
          ${this.renderInput('mobileNumber', 'tel', 'tel', 'tel')}
          ${type === 'USSD' ? this.renderBankPicker() : nothing}
          <button part="submit" class="primary" type="submit">
            ${busy ? html`<span class="spinner" aria-hidden="true"></span>${m.submitting}` : amount ? format(m.pay, { amount }) : m.payNoAmount}
          </button>
        </fieldset>
      </form>
    `;
  }

  private renderInput(field: CustomerField, type: string, autocomplete: string, inputmode: string): TemplateResult {
    const error = this.form.shown[field];
    return html`<div part="field">
      <label part="label" for=${field}>${this.strings[field]}</label>
      <input
        part="input"
        id=${field}
        name=${field}
        type=${type}
        autocomplete=${autocomplete}
        inputmode=${inputmode}
        required
        .value=${this.form.values[field]}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? `${field}-error` : nothing}
        @input=${this.onInput}
        @blur=${this.onBlur}
      />
      ${this.renderFieldError(field, error)}
    </div>`;
  }

  private renderFieldError(field: CustomerField, error: string | undefined) {
    return error ? html`<p part="error" id="${field}-error">${error}</p>` : nothing;
  }

  private renderBankPicker(): TemplateResult {
    const m = this.strings;
    const error = this.form.shown.bankCode;
    const query = this.bankQuery.trim().toLowerCase();
    const selected = this.form.values.bankCode;
    const shown = this.banks.filter(
      (bank) => bank.code === selected || !query || bank.name.toLowerCase().includes(query) || bank.code.includes(query),
    );
    return html`<div part="field">
      <label part="label" for="bankCode">${m.bankCode}</label>
      ${this.banks.length > SEARCHABLE_BANKS
        ? html`<input
            part="input"
            type="search"
            aria-label=${m.bankSearch}
            placeholder=${m.bankSearch}
            aria-controls="bankCode"
            autocomplete="off"
            .value=${this.bankQuery}
            @input=${this.onBankSearch}
          />`
        : nothing}
      <select
        part="input"
        id="bankCode"
        name="bankCode"
        required
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? 'bankCode-error' : nothing}
        @change=${this.onInput}
        @blur=${this.onBlur}
      >
        <option value="" .selected=${!selected}>${m.bankChoose}</option>
        ${shown.map((bank) => html`<option value=${bank.code} .selected=${bank.code === selected}>${bank.name}</option>`)}
      </select>
      ${shown.length ? nothing : html`<p class="muted">${format(m.noBankMatches, { query: this.bankQuery })}</p>`}
      ${this.renderFieldError('bankCode', error)}
    </div>`;
  }

  private renderUssd(instructions: UssdInstructions, request: SessionRequest, order: Order | undefined): TemplateResult {
    const m = this.strings;
    const code = instructions.ussdDialCode;
    const bankCode = request.paymentType === 'USSD' ? request.bankCode : undefined;
    return html`<section part="result">
      <h2 tabindex="-1">${m.ussdTitle}</h2>
      <p>${m.ussdSteps}</p>
      ${this.renderValue('ussdDialCode', html`<span part="dial-code">${code}</span>`, code, m.copyDialCode)}
      <a class="button primary" href="tel:${code.replaceAll('#', '%23')}">${m.dialNow}</a>
      ${this.renderDetails([
        [m.bankName, this.banks.find((bank) => bank.code === bankCode)?.name],
        [m.amount, this.charged(order)],
        [m.paymentReference, instructions.paymentReference],
      ])}
      ${this.renderWaiting()}
    </section>`;
  }

  private renderTransfer(instructions: TransferInstructions, order: Order | undefined): TemplateResult {
    const m = this.strings;
    return html`<section part="result">
      <h2 tabindex="-1">${m.transferTitle}</h2>
      <p>${order ? m.transferSteps : m.transferStepsNoAmount}</p>
      ${this.renderValue(
        'accountNumber',
        html`<span class="muted">${m.accountNumber}</span><br /><span part="account-number">${instructions.accountNumber}</span>`,
        instructions.accountNumber,
        m.copyAccountNumber,
      )}
      ${order
        ? this.renderValue(
            'amount',
            html`<span class="muted">${m.amount}</span><br /><span part="amount">${this.charged(order)}</span>`,
            order.amount,
            m.copyAmount,
          )
        : nothing}
      ${this.renderDetails([
        [m.bankName, instructions.bankName],
        [m.walletName, instructions.walletName],
        [m.paymentReference, instructions.paymentReference],
      ])}
      ${this.renderWaiting()}
    </section>`;
  }

  private renderDetails(rows: [string, string | undefined][]): TemplateResult {
    return html`<dl>
      ${rows.map(([term, value]) => (value ? html`<dt>${term}</dt><dd>${value}</dd>` : nothing))}
    </dl>`;
  }

  /**
   * A value the customer must enter elsewhere, large, with its copy button. The button says
   * "Copied" for a moment; when the clipboard refuses, a visible line says to select it instead.
   */
  private renderValue(field: string, shown: TemplateResult, value: string, copyLabel: string): TemplateResult {
    const m = this.strings;
    const copy = this.copies[field];
    return html`<div class="value">
      <span>${shown}</span>
      <button part="copy-button" type="button" @click=${() => this.copy(field, value)}>
        ${copy === 'copied' ? m.copyDone : copyLabel}
      </button>
      ${copy === 'failed' ? html`<p part="error">${m.copyFailed}</p>` : nothing}
    </div>`;
  }

  /** While `status-url` is asked: a waiting line. Once it gave up: what to do, and a way out. */
  private renderWaiting() {
    const m = this.strings;
    return html`${this.payment.polling
        ? html`<p part="status"><span class="spinner" aria-hidden="true"></span>${m.waiting}</p>`
        : this.statusUrl
          ? html`<p part="status">${m.notConfirmed}</p>`
          : nothing}
      <button type="button" @click=${this.reset}>${m.payAnotherWay}</button>`;
  }

  private renderComplete(
    status: FinalStatus,
    message: string | undefined,
    instructions: Instructions,
    order: Order | undefined,
  ): TemplateResult {
    const m = this.strings;
    return html`<section part="result" class=${status}>
      <h2 tabindex="-1">${m[`${status}Title`]}</h2>
      <p>${m[`${status}Text`]}</p>
      ${message ? html`<p class="muted">${message}</p>` : nothing}
      ${this.renderDetails([
        [m.amount, this.charged(order)],
        [m.paymentReference, instructions.paymentReference],
      ])}
      <button type="button" @click=${this.reset}>${m.startOver}</button>
    </section>`;
  }

  private renderError(failure: PayFailure): TemplateResult {
    const m = this.strings;
    return html`<section part="result" class="error">
      <h2 tabindex="-1">${m.errorTitle}</h2>
      <p>${m[`error-${failure.code}`]}</p>
      ${failure.message ? html`<p class="muted">${failure.message}</p>` : nothing}
      ${failure.fields
        ? html`<ul>
            ${Object.values(failure.fields).map((message) => html`<li>${message}</li>`)}
          </ul>`
        : nothing}
      <div class="actions">
        ${failure.retryable
          ? html`<button class="primary" type="button" @click=${() => this.payment.retry()}>${m.retry}</button>`
          : nothing}
        <button type="button" @click=${() => this.payment.edit()}>${m.edit}</button>
      </div>
    </section>`;
  }

  private onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    this.submit();
  }

  private onTypeChange(event: Event): void {
    this.paymentType = (event.target as HTMLInputElement).value;
    emit(this, 'pay-type-change', { paymentType: this.selectedType });
  }

  private onInput(event: Event): void {
    const { name, value } = event.target as HTMLInputElement | HTMLSelectElement;
    this.form.input(name as CustomerField, value, event.target instanceof HTMLSelectElement);
  }

  private onBlur(event: FocusEvent): void {
    this.form.leave((event.target as HTMLInputElement).name as CustomerField);
  }

  private onBankSearch(event: Event): void {
    this.bankQuery = (event.target as HTMLInputElement).value;
  }

  private async copy(field: string, value: string): Promise<void> {
    const { state } = this.payment;
    clearTimeout(this.copiedTimer);
    try {
      await navigator.clipboard.writeText(value);
      this.copies = { [field]: 'copied' };
      this.copiedTimer = setTimeout(() => (this.copies = {}), COPIED_FOR_MS);
      void this.announce(this.strings.copied);
      const paymentType = 'request' in state ? state.request.paymentType : this.selectedType;
      emit(this, 'pay-copy', { paymentType, paymentReference: paymentReferenceOf(state), field, value });
    } catch {
      this.copies = { [field]: 'failed' };
      void this.announce(this.strings.copyFailed);
    }
  }

  /** Leaves the form as it is for BUSY_AFTER_MS after a submit, then shows it busy unless the answer came. */
  private holdForm(): void {
    clearTimeout(this.holdingForm);
    this.holdingForm = setTimeout(() => {
      this.holdingForm = undefined;
      this.requestUpdate();
    }, BUSY_AFTER_MS);
  }

  /** Says `text` in the live region, even when it is what the region already holds. */
  private async announce(text: string): Promise<void> {
    this.announcement = '';
    await this.updateComplete;
    this.announcement = text;
  }

  private visibleFields(): CustomerField[] {
    const fields: CustomerField[] = ['fullName', 'email', 'mobileNumber'];
    return this.selectedType === 'USSD' ? [...fields, 'bankCode'] : fields;
  }

  /** The session-endpoint contract's body: normalized customer fields, and the merchant's hints that are well formed. */
  private buildRequest(): SessionRequest {
    const request: Record<string, string> = { paymentType: this.selectedType };
    for (const field of this.visibleFields()) request[field] = normalizeField(field, this.form.values[field]);
    for (const hint of ['amount', 'currency', 'country', 'paymentReference'] as const) {
      const value = normalizeField(hint, text(this[hint]));
      if (FIELD_PATTERNS[hint].test(value)) request[hint] = value;
    }
    return request as SessionRequest;
  }

  private transport(): Initiate | undefined {
    if (this.initiate) return this.initiate;
    const url = this.sessionUrl;
    return url ? (request, options) => postSession(url, request, options) : undefined;
  }

  /** What the server charges, formatted; '' when its answer did not say (never the page's guess). */
  private charged(order: Order | undefined): string {
    return order ? this.formattedAmount(order.amount, order.currency) : '';
  }

  /** The amount for its currency and the locale, or '' when there is no amount to show. */
  private formattedAmount(amount: string, currency: string): string {
    const value = Number(amount);
    if (!amount || !Number.isFinite(value)) return '';
    // `fr` + `CI` → `fr-CI`; a locale that names its own region (`en-GB`) is used as written.
    const tag = this.language.includes('-') ? this.language : `${this.language}-${text(this.country)}`;
    try {
      return amountFormat(tag, currency).format(value);
    } catch {
      return `${currency} ${amount}`;
    }
  }

  /** What the live region says when the flow moves to a new state. */
  private describeState(): string {
    const m = this.strings;
    const { state } = this.payment;
    switch (state.kind) {
      case 'form':
        return '';
      case 'submitting':
        return m.submitting;
      case 'ussd':
        return spoken(m.ussdTitle, state.instructions.ussdDialCode, this.charged(state.order));
      case 'transfer': {
        const { accountNumber, bankName } = state.instructions;
        return spoken(m.transferTitle, accountNumber, bankName, this.charged(state.order));
      }
      case 'complete':
        return m[`${state.status}Title`];
      case 'error':
        return `${m.errorTitle}. ${m[`error-${state.failure.code}`]}`;
    }
  }
}
