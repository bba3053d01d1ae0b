/**
 * <vanilla-form>: <pay-widget>'s form hand-written on the DOM, no framework: the same markup,
 * styles (the widget's CSS text, given at build time as __PAY_WIDGET_CSS__), strings and bank
 * list, rendered once with innerHTML when connected. Submitting posts the same request and swaps
 * in the same result markup. The floor of the platform itself.
 */
import { banks, formatAmount, m, pay, PAYMENT_TYPES, TEXT_FIELDS, type PaymentType, type Result } from './shared.js';

declare const __PAY_WIDGET_CSS__: string;

let sheet: CSSStyleSheet | undefined;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escape = (value: string) => value.replace(/[&<>"]/g, (c) => escapes[c]!);

/** Markup with its values escaped; arrays are joined (their items are markup already). */
function html(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce((out, s, i) => {
    const value = values[i - 1];
    return out + (Array.isArray(value) ? value.join('') : escape(String(value))) + s;
  });
}

class VanillaForm extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(__PAY_WIDGET_CSS__);
    }
    root.adoptedStyleSheets = [sheet];
    root.innerHTML = this.formMarkup();
    const form = root.querySelector('form')!;
    form.addEventListener('submit', (event) => this.onSubmit(event, form));
    form.addEventListener('change', (event) => {
      const target = event.target as HTMLInputElement;
      if (target.name === 'paymentType') root.querySelector<HTMLElement>('.bank')!.hidden = target.value !== 'USSD';
    });
  }

  private formMarkup(): string {
    const amount = formatAmount(this.getAttribute('amount') ?? '', 'NGN');
    const value = (name: string) => this.getAttribute(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)) ?? '';
    return html`<slot name="header"></slot>
      <form part="form" novalidate aria-busy="false">
        <p><span class="muted">${m.amountDue}</span><br /><span class="amount">${amount}</span></p>
        <fieldset>
          <fieldset class="types-group">
            <legend>${m.chooseType}</legend>
            <div class="types">
              ${PAYMENT_TYPES.map(
                (option) => html`<label part="type-option">
                  <input type="radio" name="paymentType" value="${option}" ${option === 'USSD' ? ['checked'] : []} /><span
                    >${m[option]}<small>${m[`${option}Hint`]}</small></span
                  >
                </label>`,
              )}
            </div>
          </fieldset>
          ${TEXT_FIELDS.map(
            ([field, type, autocomplete, inputmode]) => html`<div part="field">
              <label part="label" for="${field}">${m[field]}</label>
              <input
                part="input"
                id="${field}"
                name="${field}"
                type="${type}"
                autocomplete="${autocomplete}"
                inputmode="${inputmode}"
                required
                value="${value(field)}"
                aria-invalid="false"
              />
            </div>`,
          )}
          <div part="field" class="bank">
            <label part="label" for="bankCode">${m.bankCode}</label>
            <input part="input" type="search" aria-label="${m.bankSearch}" placeholder="${m.bankSearch}" aria-controls="bankCode" autocomplete="off" />
            <select part="input" id="bankCode" name="bankCode" required aria-invalid="false">
              <option value="">${m.bankChoose}</option>
              ${banks.map((bank) => html`<option value="${bank.code}">${bank.name}</option>`)}
            </select>
          </div>
          <button part="submit" class="primary" type="submit">${m.pay.replace('{amount}', amount)}</button>
        </fieldset>
      </form>
      <p class="sr-only" role="status"></p>
      <slot name="footer"></slot>`;
  }

  private async onSubmit(event: SubmitEvent, form: HTMLFormElement) {
    event.preventDefault();
    const type = (form.elements.namedItem('paymentType') as RadioNodeList).value as PaymentType;
    const pending = pay(this.getAttribute('session-url') ?? '', form, type, this.getAttribute('amount') ?? '');
    // Busy as the widget shows it, once the form's values are read (a disabled control is not sent).
    form.setAttribute('aria-busy', 'true');
    form.querySelector('fieldset')!.disabled = true;
    form.querySelector('button[type=submit]')!.innerHTML =
      html`<span class="spinner" aria-hidden="true"></span>${m.submitting}`;
    const result = await pending;
    form.replaceWith(this.resultSection(result));
    this.shadowRoot!.querySelector('[role=status]')!.textContent = `${m.ussdTitle}: ${result.dialCode}`;
    this.shadowRoot!.querySelector('h2')!.focus();
  }

  private resultSection(result: Result): HTMLElement {
    const template = document.createElement('template');
    template.innerHTML = html`<section part="result">
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
    return template.content.firstElementChild as HTMLElement;
  }
}

customElements.define('vanilla-form', VanillaForm);
