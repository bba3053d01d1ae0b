/**
 * <lit-form>: <pay-widget>'s form as a plain Lit element, written the way the Lit docs teach:
 * static `properties`, one `render()`, the widget's styles, strings, bank list and markup (parts,
 * labels, the bank search box and list, the live region). Submitting posts the same request and shows
 * the dial code with the same result markup. What Lit itself costs for this form: the floor.
 */
import { html, LitElement, nothing } from 'lit';
import { styles } from '../../src/element/pay-widget.styles.js';
import { banks, formatAmount, m, pay, PAYMENT_TYPES, TEXT_FIELDS, type PaymentType, type Result } from './shared.js';

class LitForm extends LitElement {
  static override styles = styles;
  static override properties = {
    sessionUrl: { attribute: 'session-url' },
    amount: {},
    fullName: { attribute: 'full-name' },
    email: {},
    mobileNumber: { attribute: 'mobile-number' },
    paymentType: { state: true },
    busy: { state: true },
    result: { state: true },
  };

  sessionUrl = '';
  amount = '';
  fullName = '';
  email = '';
  mobileNumber = '';
  paymentType: PaymentType = 'USSD';
  busy = false;
  result: Result | undefined;

  override render() {
    return html`
      <slot name="header"></slot>
      ${this.result ? this.renderResult(this.result) : this.renderForm()}
      <p class="sr-only" role="status">${this.result ? `${m.ussdTitle}: ${this.result.dialCode}` : ''}</p>
      <slot name="footer"></slot>
    `;
  }

  override updated() {
    if (this.result) this.renderRoot.querySelector('h2')?.focus();
  }

  private renderForm() {
    const amount = formatAmount(this.amount, 'NGN');
    const values: Record<string, string> = {
      fullName: this.fullName,
      email: this.email,
      mobileNumber: this.mobileNumber,
    };
    return html`
      <form part="form" novalidate @submit=${this.onSubmit} aria-busy=${this.busy}>
        ${amount ? html`<p><span class="muted">${m.amountDue}</span><br /><span class="amount">${amount}</span></p>` : nothing}
        <fieldset ?disabled=${this.busy}>
          <fieldset class="types-group">
            <legend>${m.chooseType}</legend>
            <div class="types">
              ${PAYMENT_TYPES.map(
                (option) => html`<label part="type-option">
                  <input type="radio" name="paymentType" value=${option} .checked=${option === this.paymentType} @change=${this.onTypeChange} /><span
                    >${m[option]}<small>${m[`${option}Hint`]}</small></span
                  >
                </label>`,
              )}
            </div>
          </fieldset>
          ${TEXT_FIELDS.map(
            ([field, type, autocomplete, inputmode]) => html`<div part="field">
              <label part="label" for=${field}>${m[field]}</label>
              <input
                part="input"
                id=${field}
                name=${field}
                type=${type}
                autocomplete=${autocomplete}
                inputmode=${inputmode}
                required
                .value=${values[field]!}
                aria-invalid="false"
              />
            </div>`,
          )}
          ${this.paymentType === 'USSD' ? this.renderBankPicker() : nothing}
          <button part="submit" class="primary" type="submit">
            ${this.busy ? html`<span class="spinner" aria-hidden="true"></span>${m.submitting}` : m.pay.replace('{amount}', amount)}
          </button>
        </fieldset>
      </form>
    `;
  }

  private renderBankPicker() {
    return html`<div part="field">
      <label part="label" for="bankCode">${m.bankCode}</label>
      <input part="input" type="search" aria-label=${m.bankSearch} placeholder=${m.bankSearch} aria-controls="bankCode" autocomplete="off" />
      <select part="input" id="bankCode" name="bankCode" required aria-invalid="false">
        <option value="">${m.bankChoose}</option>
        ${banks.map((bank) => html`<option value=${bank.code}>${bank.name}</option>`)}
      </select>
    </div>`;
  }

  private renderResult(result: Result) {
    return html`<section part="result">
      <h2 tabindex="-1">${m.ussdTitle}</h2>
      <p>${m.ussdSteps}</p>
      <div class="value">
        <span part="dial-code">${result.dialCode}</span>
        <button part="copy-button" type="button">${m.copyDialCode}</button>
      </div>
      <a class="button primary" href="tel:${result.dialCode.replaceAll('#', '%23')}">${m.dialNow}</a>
      <dl>
        <dt>${m.bankName}</dt><dd>${result.bankName}</dd>
        <dt>${m.amount}</dt><dd>${result.amount}</dd>
        <dt>${m.paymentReference}</dt><dd>${result.paymentReference}</dd>
      </dl>
      <button type="button">${m.payAnotherWay}</button>
    </section>`;
  }

  private onTypeChange(event: Event) {
    this.paymentType = (event.target as HTMLInputElement).value as PaymentType;
  }

  private async onSubmit(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    this.busy = true;
    this.result = await pay(this.sessionUrl, form, this.paymentType, this.amount);
    this.busy = false;
  }
}

customElements.define('lit-form', LitForm);
