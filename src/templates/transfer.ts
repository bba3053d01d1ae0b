// The transfer screen: the account to send to and, when the server said, the exact amount.
import { html, nothing, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import { copyableValue, details, grouped, waiting, type ResultView } from './parts.js';

export function transferTemplate(view: ResultView, { instructions, order }: StateOf<'transfer'>): TemplateResult {
  const m = view.messages;
  return html`<section part="result">
    <h2 tabindex="-1">${m.transferTitle}</h2>
    <p>${order ? m.transferSteps : m.transferStepsNoAmount}</p>
    ${copyableValue(
      view,
      'accountNumber',
      html`<span class="muted">${m.accountNumber}</span><br /><span part="account-number">${instructions.accountNumber}</span>`,
      instructions.accountNumber,
      m.copyAccountNumber,
    )}
    ${order
      ? copyableValue(
          view,
          'amount',
          html`<span class="muted">${m.amount}</span><br /><span part="amount">${view.charged(order)}</span>`,
          order.amount,
          m.copyAmount,
        )
      : nothing}
    ${details([
      [m.bankName, instructions.bankName],
      [m.walletName, instructions.walletName],
      [m.paymentReference, grouped(instructions.paymentReference)],
    ])}
    ${waiting(view)}
  </section>`;
}
