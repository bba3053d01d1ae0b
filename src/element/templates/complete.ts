// The last screen: the payment went through or failed, as `status-url` said, with what it charged
// (and the fee that included).
import { html, nothing, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import { chargedWithFee, details, grouped, type ResultView } from './parts.js';

export function completeTemplate(
  view: ResultView,
  { status, message, instructions, order }: StateOf<'complete'>,
): TemplateResult {
  const m = view.messages;
  return html`<section part="result" class=${status}>
    <h2 tabindex="-1">${m[`${status}Title`]}</h2>
    <p>${m[`${status}Text`]}</p>
    ${message ? html`<p class="muted">${message}</p>` : nothing}
    ${details([
      [m.amount, chargedWithFee(view, order)],
      [m.paymentReference, grouped(instructions.paymentReference)],
    ])}
    <button type="button" @click=${view.reset}>${m.startOver}</button>
  </section>`;
}
