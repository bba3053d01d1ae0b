// The USSD screen: the code to dial, what it pays (with the fee it includes) and the way to dial it
// on this device: on Android a link that dials it comes first; on iOS, whose Phone app will not dial
// a link holding `*` or `#`, copying the code does, with where to paste it, and there is no link; on
// a computer, which cannot dial, a QR code of the link right under the code, with what to do with it
// beside it, opens a phone's dialer (its box blank until the QR code's file, which only a computer
// loads, has come). (Beside the code, at the widget's usual width, the QR code
// would make the code a quarter smaller: a code of 20 characters must fit in what is left.)
import { html, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import { dialLink, dialWay } from '../platform.js';
import { chargedWithFee, copyableValue, details, shareButton, waiting, type ResultView } from './parts.js';
import { grouped } from './grouped.js';

export function ussdTemplate(view: ResultView, { instructions, request, order }: StateOf<'ussd'>): TemplateResult {
  const m = view.messages;
  const code = instructions.ussdDialCode;
  const bankCode = request.paymentType === 'USSD' ? request.bankCode : undefined;
  const way = dialWay();
  const bankName = view.banks.find((bank) => bank.code === bankCode)?.name;
  return html`<section part="result">
    <h2 tabindex="-1">${m.ussdTitle}</h2>
    <p>${m.ussdSteps}</p>
    ${copyableValue(
      view,
      'ussdDialCode',
      html`<span part="dial-code">${code}</span>`,
      code,
      m.copyDialCode,
      way === 'paste',
    )}
    ${
      way === 'link'
        ? html`<a class="button primary" href=${dialLink(code)}>${m.dialNow}</a>`
        : way === 'paste'
          ? html`<p>${m.pasteInPhone}</p>`
          : html`<div class="scan">
            ${view.qrCode(dialLink(code)) ?? html`<svg class="qr" aria-hidden="true"></svg>`}
            <p>${m.scanToDial}</p>
          </div>`
    }
    ${details([
      [m.bankName, bankName],
      [m.amount, chargedWithFee(view, order)],
      [m.paymentReference, grouped(instructions.paymentReference)],
    ])}
    ${shareButton(view, [
      ['', m.ussdTitle],
      ['', code],
      [m.bankName, bankName],
      [m.amount, view.charged(order)],
      [m.paymentReference, instructions.paymentReference],
    ])}
    ${waiting(view, instructions.paymentReference)}
  </section>`;
}
