// The USSD screen: the code to dial, a link that dials it, and what it pays.
import { html, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import { copyableValue, details, grouped, waiting, type ResultView } from './parts.js';

export function ussdTemplate(view: ResultView, { instructions, request, order }: StateOf<'ussd'>): TemplateResult {
  const m = view.messages;
  const code = instructions.ussdDialCode;
  const bankCode = request.paymentType === 'USSD' ? request.bankCode : undefined;
  return html`<section part="result">
    <h2 tabindex="-1">${m.ussdTitle}</h2>
    <p>${m.ussdSteps}</p>
    ${copyableValue(view, 'ussdDialCode', html`<span part="dial-code">${code}</span>`, code, m.copyDialCode)}
    <a class="button primary" href="tel:${code.replaceAll('#', '%23')}">${m.dialNow}</a>
    ${details([
      [m.bankName, view.banks.find((bank) => bank.code === bankCode)?.name],
      [m.amount, view.charged(order)],
      [m.paymentReference, grouped(instructions.paymentReference)],
    ])}
    ${waiting(view)}
  </section>`;
}
