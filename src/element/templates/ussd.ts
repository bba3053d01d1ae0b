// The USSD screen: the code to dial, what it pays (with the fee it includes) and the ways to dial
// it: on Android a link that dials it comes first; on iOS, whose Phone app will not dial a link
// holding `*` or `#`, copying the code does, with where to paste it.
import { html, nothing, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import { dialLink, isIOS } from '../platform.js';
import { chargedWithFee, copyableValue, details, grouped, shareButton, waiting, type ResultView } from './parts.js';

export function ussdTemplate(view: ResultView, { instructions, request, order }: StateOf<'ussd'>): TemplateResult {
  const m = view.messages;
  const code = instructions.ussdDialCode;
  const bankCode = request.paymentType === 'USSD' ? request.bankCode : undefined;
  const ios = isIOS();
  const bankName = view.banks.find((bank) => bank.code === bankCode)?.name;
  return html`<section part="result">
    <h2 tabindex="-1">${m.ussdTitle}</h2>
    <p>${m.ussdSteps}</p>
    ${copyableValue(view, 'ussdDialCode', html`<span part="dial-code">${code}</span>`, code, m.copyDialCode, ios)}
    ${ios ? html`<p>${m.pasteInPhone}</p>` : nothing}
    <a class=${ios ? 'button' : 'button primary'} href=${dialLink(code)}>${m.dialNow}</a>
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
