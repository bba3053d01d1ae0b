// The last screen: the payment went through or failed, as `status-url` said, with what it charged
// (and the fee that included). When the answer gave a reason (a payment of another amount, one
// after the time to pay ran out), it says what happened and what happens next instead.
import { html, nothing, type TemplateResult } from 'lit';
import type { StateOf } from '../flow.js';
import { format } from '../messages/index.js';
import { chargedWithFee, details, type ResultView } from './parts.js';
import { grouped } from './grouped.js';

export function completeTemplate(view: ResultView, state: StateOf<'complete'>): TemplateResult {
  const { status, message, instructions, order, review } = state;
  const m = view.messages;
  // A PENDING payment comes only with a review (flow.ts): the strings are the review's reason's, else the status's.
  const key = review?.reason ?? (status as 'SUCCESS' | 'FAILED');
  return html`<section part="result" class=${status}>
    <h2 tabindex="-1">${m[`${key}Title`]}</h2>
    ${review ? reviewText(view, state) : html`<p>${m[`${key}Text`]}</p>`}
    ${message && !review ? html`<p class="muted">${message}</p>` : nothing}
    ${details([
      [m.amount, chargedWithFee(view, order)],
      [m.paymentReference, grouped(instructions.paymentReference)],
    ])}
    <button type="button" @click=${view.reset}>${m.startOver}</button>
  </section>`;
}

/** "We received ₦9,500 of ₦10,000." (or late), then: do not pay again, the shop will call, keep the reference. */
function reviewText(
  { messages: m, charged }: ResultView,
  { review, order, instructions }: StateOf<'complete'>,
): TemplateResult {
  const { reason, amountReceived, currencyReceived } = review!;
  const amount = charged(order);
  const received =
    amountReceived && order
      ? charged({ ...order, amount: amountReceived, currency: currencyReceived ?? order.currency })
      : '';
  const said =
    reason === 'after-expiry'
      ? m['after-expiryText']
      : received
        ? m['amount-mismatchText']
        : m['amount-mismatchUnknown'];
  return html`<p><strong>${format(said, { received, amount })}</strong></p>
    <p class="value note">${format(m.reviewNext, { reference: instructions.paymentReference })}</p>`;
}
