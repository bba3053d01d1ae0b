// The transfer screen: the account to send to, with its bank (the bank app asks for both), how to
// send (the exact amount, this payment only), how long the account is valid when the server said
// (and, once it has run out, a new one, the old account struck through and no longer copyable),
// and, when the server said, the exact amount with the fee it includes.
import { html, nothing, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import { format } from '../messages/index.js';
import { countdownText } from '../countdown.js';
import { copyableValue, details, feeNote, shareButton, waiting, type ResultView } from './parts.js';
import { grouped } from './grouped.js';

export function transferTemplate(view: ResultView, { instructions, order }: StateOf<'transfer'>): TemplateResult {
  const m = view.messages;
  const left = view.wait.remainingMs;
  return html`<section part="result">
    <h2 tabindex="-1">${m.transferTitle}</h2>
    <p>${order ? m.transferSteps : m.transferStepsNoAmount}</p>
    <ul>
      <li>${m.exactAmount}</li>
      <li>${m.accountForThisPayment}</li>
    </ul>
    ${left === undefined
      ? nothing
      : left === 0
        ? html`<p part="error">${m.accountExpired}</p>
            <button class="primary" type="button" @click=${view.renew}>${m.newAccount}</button>`
        : html`<p role="timer"><strong>${format(m.validFor, { time: countdownText(left) })}</strong></p>`}
    ${left === 0
      ? nothing
      : copyableValue(
          view,
          'accountNumber',
          html`<span class="muted">${m.accountNumber}</span><br /><span part="account-number">${instructions.accountNumber}</span><br /><strong>${instructions.bankName}</strong>`,
          instructions.accountNumber,
          m.copyAccountNumber,
        )}
    ${order
      ? copyableValue(
          view,
          'amount',
          html`<span class="muted">${m.amount}</span><br /><span part="amount">${view.charged(order)}</span>${feeNote(view, order)}`,
          order.amount,
          m.copyAmount,
        )
      : nothing}
    ${details([
      // Once run out, the account is no longer offered: struck through among the details, with its bank, nothing to copy.
      [m.accountNumber, left === 0 ? html`<s class="muted">${instructions.accountNumber}</s>` : undefined],
      [m.bankName, left === 0 ? instructions.bankName : undefined],
      [m.walletName, instructions.walletName],
      [m.paymentReference, grouped(instructions.paymentReference)],
    ])}
    ${left === 0
      ? nothing
      : shareButton(view, [
          ['', m.transferTitle],
          [m.accountNumber, instructions.accountNumber],
          [m.bankName, instructions.bankName],
          [m.walletName, instructions.walletName],
          [m.amount, view.charged(order)],
          // The time on the customer's phone, hh:mm, as a relative reading it later needs it.
          ['', order?.expiresAt && format(m.validUntil, { time: new Date(order.expiresAt).toTimeString().slice(0, 5) })],
          [m.paymentReference, instructions.paymentReference],
        ])}
    ${waiting(view, instructions.paymentReference)}
  </section>`;
}
