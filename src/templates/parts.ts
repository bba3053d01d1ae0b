// What the result screens share: what each is given, the rows of details, a value to copy with its
// button, and the waiting line with its way out.
import { html, nothing, type TemplateResult } from 'lit';
import type { Bank } from '../banks.js';
import type { CopyResult } from '../copy-controller.js';
import type { Messages } from '../messages/index.js';
import type { Order } from '../schemas.js';

/** What the result screens are given besides their own state. */
export type ResultView = {
  messages: Messages;
  /** The copy buttons' state. */
  copies: Partial<Record<string, CopyResult>>;
  /** What the server charges, formatted; '' when its answer did not say (never the page's guess). */
  charged: (order: Order | undefined) => string;
  banks: readonly Bank[];
  /** `status-url` is being asked ('waiting'), gave up ('unconfirmed'), or is not set. */
  status: 'waiting' | 'unconfirmed' | undefined;
  copy: (field: string, value: string) => void;
  reset: () => void;
};

/** Term and value rows; a row without a value is left out. */
export function details(rows: [string, string | TemplateResult[] | undefined][]): TemplateResult {
  return html`<dl>
    ${rows.map(([term, value]) => (value ? html`<dt>${term}</dt><dd>${value}</dd>` : nothing))}
  </dl>`;
}

/**
 * A reference with a line-break opportunity after every four letters or digits and their
 * separators (`pw-3f9a0c1d…` → `pw-`, `3f9a`, `0c1d`, …), so that it wraps between groups, never
 * inside one. Its text, and what a selection copies, stay the same.
 */
export function grouped(reference: string): TemplateResult[] {
  return reference.match(/[^\W_]{1,4}[\W_]*|[\W_]+/g)!.map((group) => html`${group}<wbr />`);
}

/**
 * A value the customer must enter elsewhere, large, with its copy button. The button says
 * "Copied" for a moment, keeping its width (the other label sizes it, unseen), so nothing moves;
 * when the clipboard refuses, a visible line says to select it instead.
 */
export function copyableValue(
  { messages: m, copies, copy }: ResultView,
  field: string,
  shown: TemplateResult,
  value: string,
  copyLabel: string,
): TemplateResult {
  const result = copies[field];
  const copied = result === 'copied';
  return html`<div class="value">
    <span>${shown}</span>
    <button part="copy-button" type="button" data-other=${copied ? copyLabel : m.copyDone} @click=${() => copy(field, value)}>
      <span>${copied ? m.copyDone : copyLabel}</span>
    </button>
    ${result === 'failed' ? html`<p part="error">${m.copyFailed}</p>` : nothing}
  </div>`;
}

/** While `status-url` is asked: a waiting line. Once it gave up: what to do. And a way out. */
export function waiting({ messages: m, status, reset }: ResultView): TemplateResult {
  return html`${status === 'waiting'
      ? html`<p part="status"><span class="spinner" aria-hidden="true"></span>${m.waiting}</p>`
      : status
        ? html`<p part="status">${m.notConfirmed}</p>`
        : nothing}
    <button type="button" @click=${reset}>${m.payAnotherWay}</button>`;
}
