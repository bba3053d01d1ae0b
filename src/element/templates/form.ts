// The form: the amount due, the payment-type choice, the customer's fields and, for USSD, their bank.
import { html, nothing, type TemplateResult } from 'lit';
import { bankMatches, bankWithoutUssd } from '../bank-search.js';
import type { Bank } from '../banks.js';
import type { Values } from '../form-controller.js';
import { format, type Messages } from '../messages/index.js';
import type { CustomerField, PaymentType } from '../../contract/rules.js';
import { picked } from './picked.js';

export type FormView = {
  messages: Messages;
  /** The amount due, formatted; '' when the page gave none. */
  amount: string;
  offered: readonly PaymentType[];
  selected: PaymentType;
  /** Waiting for the session endpoint: the controls are disabled and the button spins. */
  busy: boolean;
  disabled: boolean;
  values: Values;
  /** The errors to show now, by field. */
  errors: Partial<Values>;
  banks: readonly Bank[];
  bankQuery: string;
};

export type FormActions = {
  /** The Pay button's click (Enter in a field clicks it too), and the form's submit. */
  submit: (event: Event) => void;
  typeChange: (event: Event) => void;
  /** A field's `input`, or a `change` of the bank list. */
  input: (event: Event) => void;
  blur: (event: FocusEvent) => void;
  bankSearch: (event: Event) => void;
};

/** Banks beyond this many get a search box above the list. */
const SEARCHABLE_BANKS = 6;

export function formTemplate(view: FormView, actions: FormActions): TemplateResult {
  const { messages: m, amount, offered, selected, busy } = view;
  return html`
    <form part="form" novalidate @submit=${actions.submit} aria-busy=${busy}>
      ${
        amount
          ? html`<p><span class="muted">${m.amountDue}</span><br /><span class="amount">${amount}</span></p>`
          : nothing
      }
      <fieldset ?disabled=${busy || view.disabled}>
        ${
          offered.length > 1
            ? html`<fieldset class="types-group">
              <legend>${m.chooseType}</legend>
              <div class="types">
                ${offered.map(
                  (option) => html`<label part="type-option">
                    <input
                      type="radio"
                      name="paymentType"
                      value=${option}
                      ?checked=${option === selected}
                      ${picked(option === selected)}
                      @change=${actions.typeChange}
                    /><span>${m[option]}<small>${option === 'USSD' ? m.USSDHint : m.TRANSFERHint}</small></span>
                  </label>`,
                )}
              </div>
            </fieldset>`
            : nothing
        }
        ${input(view, actions, 'fullName', 'text', 'name', 'text')}
        ${input(view, actions, 'email', 'email', 'email', 'email')}
        ${input(view, actions, 'mobileNumber', 'tel', 'tel', 'tel')}
        ${selected === 'USSD' ? bankPicker(view, actions) : nothing}
        <button part="submit" class="primary" type="submit" @click=${actions.submit}>
          ${
            busy
              ? html`<span class="spinner" aria-hidden="true"></span>${m.submitting}`
              : amount
                ? format(m.pay, { amount })
                : m.payNoAmount
          }
        </button>
      </fieldset>
    </form>
  `;
}

function input(
  { messages, values, errors }: FormView,
  actions: FormActions,
  field: CustomerField,
  type: string,
  autocomplete: string,
  inputmode: string,
): TemplateResult {
  const error = errors[field];
  return html`<div part="field">
    <label part="label" for=${field}>${messages[field]}</label>
    <input
      part="input"
      id=${field}
      name=${field}
      type=${type}
      autocomplete=${autocomplete}
      inputmode=${inputmode}
      required
      .value=${values[field]}
      aria-invalid=${error ? 'true' : 'false'}
      aria-describedby=${error ? `${field}-error` : nothing}
      @input=${actions.input}
      @blur=${actions.blur}
    />
    ${fieldError(field, error)}
  </div>`;
}

function fieldError(field: CustomerField, error: string | undefined) {
  return error ? html`<p part="error" id="${field}-error">${error}</p>` : nothing;
}

/**
 * The bank list, with a search box when it is long: the banks the search names (the chosen bank is
 * one of them: form-controller.ts takes back a choice the search hides). A search that names no bank
 * offers a transfer, saying so when it names a bank customers know that has no USSD here (UBA, OPay).
 */
function bankPicker(
  { messages: m, errors, values, banks, bankQuery, offered }: FormView,
  actions: FormActions,
): TemplateResult {
  const error = errors.bankCode;
  const selected = values.bankCode;
  const matches = banks.filter((bank) => bankMatches(bank, bankQuery));
  const withoutUssd = bankWithoutUssd(bankQuery);
  return html`<div part="field">
    <label part="label" for="bankCode">${m.bankCode}</label>
    ${
      banks.length > SEARCHABLE_BANKS
        ? html`<input
          part="input"
          type="search"
          aria-label=${m.bankSearch}
          placeholder=${m.bankSearch}
          aria-controls="bankCode"
          autocomplete="off"
          .value=${bankQuery}
          @input=${actions.bankSearch}
        />`
        : nothing
    }
    <select
      part="input"
      id="bankCode"
      name="bankCode"
      required
      aria-invalid=${error ? 'true' : 'false'}
      aria-describedby=${error ? 'bankCode-error' : nothing}
      @change=${actions.input}
      @blur=${actions.blur}
    >
      <option value="" ?selected=${!selected} ${picked(!selected)}>${m.bankChoose}</option>
      ${matches.map(
        (bank) =>
          html`<option
            value=${bank.code}
            ?selected=${bank.code === selected}
            ${picked(bank.code === selected)}
          >${bank.name}</option>`,
      )}
    </select>
    ${
      matches.length
        ? nothing
        : html`<p class="muted">${format(withoutUssd ? m.bankWithoutUssd : m.noBankMatches, {
            bank: withoutUssd,
            query: bankQuery,
          })}</p>
          ${
            offered.includes('TRANSFER')
              ? html`<button type="button" value="TRANSFER" @click=${actions.typeChange}>${m.payByTransfer}</button>`
              : nothing
          }`
    }
    ${fieldError('bankCode', error)}
  </div>`;
}
