// The last screen: the payment went through or failed, as `status-url` said, with what it charged.
import { html, nothing, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import { details, grouped, type ResultView } from './parts.js';

export function completeTemplate(
  { messages: m, charged, reset }: ResultView,
  { status, message, instructions, order }: StateOf<'complete'>,
): TemplateResult {
  return html`<section part="result" class=${status}>
    <h2 tabindex="-1">${m[`${status}Title`]}</h2>
    <p>${m[`${status}Text`]}</p>
    ${message ? html`<p class="muted">${message}</p>` : nothing}
    ${details([
      [m.amount, charged(order)],
      [m.paymentReference, grouped(instructions.paymentReference)],
    ])}
    <button type="button" @click=${reset}>${m.startOver}</button>
  </section>`;
}
