// The transfer screen: the account to send to, with its bank (the bank app asks for both), how to
// send (the exact amount, this payment only), and, when the server said, how long the account is
// valid and the exact amount with the fee it includes; once the account has run out, that it has
// closed and a new one, the old account struck through, nothing to copy or share.
import { html, nothing, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import type { Order } from '../../contract/schemas.js';
import { format } from '../messages/index.js';
import { countdownText } from '../countdown.js';
import { copyableValue, details, feeNote, shareButton, waiting, type ResultView } from './parts.js';
import { grouped } from './grouped.js';

export function transferTemplate(view: ResultView, { instructions, order }: StateOf<'transfer'>): TemplateResult {
  const m = view.messages;
  // Once run out (issue 36), nothing asks for a transfer: the account has closed, struck through
  // among the details with its bank (to compare with a transfer made just before), a new one offered.
  const closed = view.wait.remainingMs === 0;
  // The screen's own rules, here rather than in the element's stylesheet, which every USSD payment
  // loads: the account number and amount as large as a dial code (pay-widget.styles.ts), a long
  // account number breaking anywhere.
  return html`<section part="result">
    <style>
      [part~='account-number'],
      [part~='amount'] {
        font: 700 1.6em/1.2 ui-monospace, 'SF Mono', Menlo, Consolas, monospace;
        letter-spacing: 0.04em;
        user-select: all;
      }
      [part~='account-number'] {
        overflow-wrap: anywhere;
      }
    </style>
    <h2 tabindex="-1">${closed ? m.accountClosed : m.transferTitle}</h2>
    ${
      closed
        ? html`<p>${m.accountExpired}</p>
          <button class="primary" type="button" @click=${view.renew}>${m.newAccount}</button>`
        : howToTransfer(view, instructions, order)
    }
    ${details([
      [m.accountNumber, closed ? html`<s class="muted">${instructions.accountNumber}</s>` : undefined],
      [m.bankName, closed ? instructions.bankName : undefined],
      [m.walletName, instructions.walletName],
      [m.paymentReference, grouped(instructions.paymentReference)],
    ])}
    ${
      closed
        ? nothing
        : shareButton(view, [
            ['', m.transferTitle],
            [m.accountNumber, instructions.accountNumber],
            [m.bankName, instructions.bankName],
            [m.walletName, instructions.walletName],
            [m.amount, view.charged(order)],
            // The time on the customer's phone, hh:mm, as a relative reading it later needs it.
            [
              '',
              order?.expiresAt && format(m.validUntil, { time: new Date(order.expiresAt).toTimeString().slice(0, 5) }),
            ],
            [m.paymentReference, instructions.paymentReference],
          ])
    }
    ${waiting(view, instructions.paymentReference)}
  </section>`;
}

/**
 * While the account is open: how to send, how long it stays valid when the server said, the account and the amount to
 * copy.
 */
function howToTransfer(
  view: ResultView,
  instructions: StateOf<'transfer'>['instructions'],
  order: Order | undefined,
): TemplateResult {
  const m = view.messages;
  const left = view.wait.remainingMs;
  return html`<p>${order ? m.transferSteps : m.transferStepsNoAmount}</p>
    <ul>
      <li>${m.exactAmount}</li>
      <li>${m.accountForThisPayment}</li>
    </ul>
    ${
      left === undefined
        ? nothing
        : html`<p role="timer"><strong>${format(m.validFor, { time: countdownText(left) })}</strong></p>`
    }
    ${copyableValue(
      view,
      'accountNumber',
      html`<span class="muted">${m.accountNumber}</span
        ><br /><span part="account-number">${instructions.accountNumber}</span
        ><br /><strong>${instructions.bankName}</strong>`,
      instructions.accountNumber,
      m.copyAccountNumber,
    )}
    ${
      order
        ? copyableValue(
            view,
            'amount',
            html`<span class="muted">${m.amount}</span
              ><br /><span part="amount">${view.charged(order)}</span>${feeNote(view, order)}`,
            order.amount,
            m.copyAmount,
          )
        : nothing
    }`;
}
