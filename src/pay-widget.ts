import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { DEFAULT_BANKS, type Bank } from './banks.js';
import { postSession, type Initiate } from './client.js';
import { emit } from './events.js';
import { paymentReferenceOf, type FinalStatus, type PayFailure } from './flow.js';
import { format, LocaleController, type Messages } from './messages/index.js';
import { PaymentController } from './payment-controller.js';
import { styles } from './pay-widget.styles.js';
import { FIELD_PATTERNS, isValidField, normalizeField, PAYMENT_TYPES, type CustomerField, type PaymentType } from './rules.js';
import type { Instructions, SessionRequest, TransferInstructions, UssdInstructions } from './schemas.js';

type Values = Record<CustomerField, string>;

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

  @property({ attribute: 'session-url' }) sessionUrl = '';
  @property({ attribute: 'status-url' }) statusUrl = '';
  @property() amount = '';
  @property() currency = 'NGN';
  @property() country = 'NG';
  @property({ attribute: 'payment-types' }) paymentTypes = 'USSD TRANSFER';
  @property({ attribute: 'payment-type' }) paymentType = '';
  @property({ attribute: 'full-name' }) fullName = '';
  @property() email = '';
  @property({ attribute: 'mobile-number' }) mobileNumber = '';
  @property({ attribute: 'payment-reference' }) paymentReference = '';
  @property() locale = 'en';
  @property({ type: Number }) timeout = 30_000;
  @property({ type: Boolean, reflect: true }) disabled = false;

  @property({ attribute: false }) banks: readonly Bank[] = DEFAULT_BANKS;
  @property({ attribute: false }) messages: Partial<Messages> = {};
  @property({ attribute: false }) initiate: Initiate | undefined;

  @state() private values: Values = { fullName: '', email: '', mobileNumber: '', bankCode: '' };
  @state() private touched = new Set<CustomerField>();
  @state() private submitted = false;
  @state() private serverErrors: Partial<Record<string, string>> = {};
  @state() private bankQuery = '';
  @state() private announcement = '';

  /** The strings of `locale`: English at once, another language once its file has loaded. */
  private readonly translation = new LocaleController(this, () => this.locale);
  private readonly payment = new PaymentController(this, () => ({
    transport: this.transport(),
    timeoutMs: this.timeout > 0 ? this.timeout : 30_000,
    statusUrl: this.statusUrl || undefined,
    describe: (failure) => failure.message ?? this.strings[`error-${failure.code}`],
  }));
  private shownKind = this.payment.state.kind;
  private focusOnUpdate: 'heading' | 'invalid' | 'first' | undefined;

  /** The payment types on offer, in the merchant's order, unknown names ignored. */
  get offeredTypes(): PaymentType[] {
    const offered = PAYMENT_TYPES.filter((type) => this.paymentTypes.toUpperCase().split(/\s+/).includes(type));
    return offered.length ? offered : [...PAYMENT_TYPES];
  }

  /** The chosen payment type: `payment-type` when it is on offer, else the first offered. */
  get selectedType(): PaymentType {
    const offered = this.offeredTypes;
    return offered.find((type) => type === this.paymentType.toUpperCase()) ?? offered[0]!;
  }

  private get strings(): Messages {
    return { ...this.translation.messages, ...this.messages };
  }

  /** Submits the form: checks every field, then posts to `session-url` (or calls `initiate`). */
  submit(): void {
    if (this.disabled || this.payment.state.kind !== 'form') return;
    this.submitted = true;
    const invalid = this.visibleFields().find((field) => this.fieldError(field));
    if (invalid) {
      void this.announce(this.strings.fixFields);
      this.focusOnUpdate = 'invalid';
      emit(this, 'pay-error', {
        paymentType: this.selectedType,
        code: 'validation',
        message: this.fieldError(invalid)!,
        retryable: false,
      });
      return;
    }
    this.payment.submit(this.buildRequest());
  }

  /** Back to the form for a new payment; typed values stay, the next submit is a new attempt. */
  reset(): void {
    this.submitted = false;
    this.touched = new Set();
    this.serverErrors = {};
    this.payment.reset(this.selectedType);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    for (const field of ['fullName', 'email', 'mobileNumber'] as const) {
      if (changed.has(field)) this.values = { ...this.values, [field]: this[field] };
    }
    const { state } = this.payment;
    if (state.kind !== this.shownKind) {
      this.shownKind = state.kind;
      this.announcement = this.describeState();
      this.focusOnUpdate = state.kind === 'submitting' ? undefined : state.kind === 'form' ? 'first' : 'heading';
      if (state.kind === 'error') this.serverErrors = state.failure.fields ?? {};
      if (state.kind === 'form' && this.visibleFields().some((field) => this.serverErrors[field])) {
        this.focusOnUpdate = 'invalid';
      }
    }
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
        body = this.renderForm(state.kind === 'submitting');
        break;
      case 'ussd':
        body = this.renderUssd(state.instructions, state.request);
        break;
      case 'transfer':
        body = this.renderTransfer(state.instructions, state.request);
        break;
      case 'complete':
        body = this.renderComplete(state.status, state.message, state.instructions, state.request);
        break;
      case 'error':
        body = this.renderError(state.failure);
        break;
    }
    return html`
      <slot name="header"></slot>
      <div lang=${this.translation.lang}>
        ${body}
        <p class="sr-only" role="status">${this.announcement}</p>
      </div>
      <slot name="footer"></slot>
    `;
  }

  private renderForm(busy: boolean): TemplateResult {
    const m = this.strings;
    const amount = this.formattedAmount(this.amount, this.currency);
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
    const error = this.shownError(field);
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
        .value=${this.values[field]}
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
    const error = this.shownError('bankCode');
    const query = this.bankQuery.trim().toLowerCase();
    const selected = this.values.bankCode;
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

  private renderUssd(instructions: UssdInstructions, request: SessionRequest): TemplateResult {
    const m = this.strings;
    const code = instructions.ussdDialCode;
    const bankCode = request.paymentType === 'USSD' ? request.bankCode : undefined;
    return html`<section part="result">
      <h2 tabindex="-1">${m.ussdTitle}</h2>
      <p>${m.ussdSteps}</p>
      <div class="value">
        <span part="dial-code">${code.split(/(?=\*)/).map((group, i) => (i ? html`<wbr />${group}` : group))}</span>
        ${this.renderCopy('ussdDialCode', m.copyDialCode, code)}
      </div>
      <a class="button primary" href="tel:${code.replaceAll('#', '%23')}">${m.dialNow}</a>
      ${this.renderDetails([
        [m.bankName, this.banks.find((bank) => bank.code === bankCode)?.name],
        [m.amount, this.formattedAmount(request.amount, request.currency)],
        [m.paymentReference, instructions.paymentReference],
      ])}
      ${this.renderWaiting()}
    </section>`;
  }

  private renderTransfer(instructions: TransferInstructions, request: SessionRequest): TemplateResult {
    const m = this.strings;
    return html`<section part="result">
      <h2 tabindex="-1">${m.transferTitle}</h2>
      <p>${m.transferSteps}</p>
      <div class="value">
        <span><span class="muted">${m.accountNumber}</span><br /><span part="account-number">${instructions.accountNumber}</span></span>
        ${this.renderCopy('accountNumber', m.copyAccountNumber, instructions.accountNumber)}
      </div>
      ${this.renderDetails([
        [m.bankName, instructions.bankName],
        [m.walletName, instructions.walletName],
        [m.amount, this.formattedAmount(request.amount, request.currency)],
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

  private renderCopy(field: string, label: string, value: string): TemplateResult {
    return html`<button part="copy-button" type="button" @click=${() => this.copy(field, value)}>${label}</button>`;
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
    request: SessionRequest,
  ): TemplateResult {
    const m = this.strings;
    return html`<section part="result" class=${status}>
      <h2 tabindex="-1">${m[`${status}Title`]}</h2>
      <p>${m[`${status}Text`]}</p>
      ${message ? html`<p class="muted">${message}</p>` : nothing}
      ${this.renderDetails([
        [m.amount, this.formattedAmount(request.amount, request.currency)],
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
    const field = name as CustomerField;
    this.values = { ...this.values, [field]: value };
    if (this.serverErrors[field]) this.serverErrors = { ...this.serverErrors, [field]: undefined };
    // A <select> has no typing phase: the choice itself is the customer leaving the field.
    if (event.target instanceof HTMLSelectElement) this.markTouched(field);
  }

  private onBlur(event: FocusEvent): void {
    this.markTouched((event.target as HTMLInputElement).name as CustomerField);
  }

  private onBankSearch(event: Event): void {
    this.bankQuery = (event.target as HTMLInputElement).value;
  }

  private markTouched(field: CustomerField): void {
    if (!this.touched.has(field)) this.touched = new Set(this.touched).add(field);
  }

  private async copy(field: string, value: string): Promise<void> {
    const { state } = this.payment;
    try {
      await navigator.clipboard.writeText(value);
      void this.announce(this.strings.copied);
      const paymentType = 'request' in state ? state.request.paymentType : this.selectedType;
      emit(this, 'pay-copy', { paymentType, paymentReference: paymentReferenceOf(state), field, value });
    } catch {
      void this.announce(this.strings.copyFailed);
    }
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

  private fieldError(field: CustomerField): string | undefined {
    const value = this.values[field];
    if (!value.trim()) return this.strings[`${field}Required`];
    if (!isValidField(field, value)) return this.strings[`${field}Invalid`];
    return this.serverErrors[field];
  }

  /** Errors show once the customer has left the field, or tried to submit. */
  private shownError(field: CustomerField): string | undefined {
    return this.submitted || this.touched.has(field) || this.serverErrors[field] ? this.fieldError(field) : undefined;
  }

  /** The session-endpoint contract's body: normalized customer fields, and the merchant's hints that are well formed. */
  private buildRequest(): SessionRequest {
    const request: Record<string, string> = { paymentType: this.selectedType };
    for (const field of this.visibleFields()) request[field] = normalizeField(field, this.values[field]);
    for (const hint of ['amount', 'currency', 'country', 'paymentReference'] as const) {
      const value = normalizeField(hint, this[hint]);
      if (FIELD_PATTERNS[hint].test(value)) request[hint] = value;
    }
    return request as SessionRequest;
  }

  private transport(): Initiate | undefined {
    if (this.initiate) return this.initiate;
    const url = this.sessionUrl;
    return url ? (request, options) => postSession(url, request, options) : undefined;
  }

  /** The amount for its currency and the locale, or '' when there is no amount to show. */
  private formattedAmount(amount: string | undefined, currency = this.currency): string {
    const value = Number(amount);
    if (!amount || !Number.isFinite(value)) return '';
    // `fr` + `CI` → `fr-CI`; a locale that names its own region (`en-GB`) is used as written.
    const tag = this.locale.includes('-') ? this.locale : `${this.locale}-${this.country}`;
    try {
      return new Intl.NumberFormat(tag, { style: 'currency', currency }).format(value);
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
        return `${m.ussdTitle}: ${state.instructions.ussdDialCode}`;
      case 'transfer':
        return `${m.transferTitle}: ${state.instructions.accountNumber}, ${state.instructions.bankName}`;
      case 'complete':
        return m[`${state.status}Title`];
      case 'error':
        return `${m.errorTitle}. ${m[`error-${state.failure.code}`]}`;
    }
  }
}
