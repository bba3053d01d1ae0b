// What the result screens share: what each is given, the rows of details, a value to copy with its
// button, the fee an amount includes, and the waiting lines with the ways on ("I've sent the money",
// another way to pay).
import { html, nothing, type TemplateResult } from 'lit';
import type { Bank } from '../banks.js';
import type { CopyResult } from '../copy-controller.js';
import { format, type Messages } from '../messages/index.js';
import { grouped } from './grouped.js';
import type { Order } from '../../contract/schemas.js';
import type { PaidCheck, Poll } from '../status-poller.js';
import type { WaitController } from '../wait-controller.js';

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
  /** The polling under way, which asks at once when the customer says they have paid. */
  poll: Poll | undefined;
  /** The QR code of a text (a computer's way to dial), once its module has loaded; asking starts the load. */
  qrCode: (text: string) => TemplateResult | undefined;
  /** How long the screen has waited, and the transfer account's countdown (0 once it has run out). */
  wait: Pick<WaitController, 'remainingMs' | 'waitedLong'>;
  copy: (field: string, value: string) => void;
  /** Says `text` in the element's live region. */
  announce: (text: string) => void;
  reset: () => void;
  /** A new attempt (a new transfer account) with the same details. */
  renew: () => void;
};

/**
 * Term and value rows, each a line of its own: the value beside its term, or under it where it
 * does not fit, breaking only between words (and a reference's groups); a row without a value is
 * left out.
 */
export function details(rows: [string, string | TemplateResult | TemplateResult[] | undefined][]): TemplateResult {
  return html`<dl>
    ${rows.map(([term, value]) => (value ? html`<div><dt>${term}</dt><dd>${value}</dd></div>` : nothing))}
  </dl>`;
}

/** "includes ₦50.00 fee" on a line of its own, under an amount whose order says it includes a fee. */
export function feeNote(
  { messages: m, charged }: ResultView,
  order: Order | undefined,
): TemplateResult | typeof nothing {
  const fee = order?.fee && charged({ ...order, amount: order.fee });
  return fee ? html`<br /><small class="muted">${format(m.includesFee, { fee })}</small>` : nothing;
}

/** What the server charges, with the fee it includes; '' when it did not say. */
export function chargedWithFee(view: ResultView, order: Order | undefined): string | TemplateResult {
  const charged = view.charged(order);
  return charged && html`${charged}${feeNote(view, order)}`;
}

/**
 * One of `texts` shown, the others laid out unseen in the same place (their text is not in the page,
 * only in CSS's generated content): in an element of the class `stack`, which is then as large as
 * the longest, so that nothing moves when another shows.
 */
function oneOf(texts: string[], shown: string): TemplateResult {
  // The unseen first: painted under the one shown, they do not hide it from a contrast check.
  return html`${texts.map((text) =>
    text === shown ? nothing : html`<span data-text=${text}></span>`,
  )}<span>${shown}</span>`;
}

/**
 * A value the customer must enter elsewhere, large, with its copy button (`primary` where copying
 * is the way on). The button says "Copied" for a moment or, when the clipboard refuses, to copy it
 * yourself (the live region says how), keeping its size, so nothing moves.
 */
export function copyableValue(
  { messages: m, copies, copy }: ResultView,
  field: string,
  shown: TemplateResult,
  value: string,
  copyLabel: string,
  primary = false,
): TemplateResult {
  const result = copies[field];
  const label = result === 'copied' ? m.copyDone : result === 'failed' ? m.copyByHand : copyLabel;
  return html`<div class="value">
    <span>${shown}</span>
    <button
      part="copy-button"
      class="stack ${primary ? 'primary' : ''}"
      type="button"
      @click=${() => copy(field, value)}
    >
      ${oneOf([copyLabel, m.copyDone, m.copyByHand], label)}
    </button>
  </div>`;
}

/** A line of the shared instructions: `Term: value`, or the value alone; left out without a value. */
export type ShareLine = [term: string, value: string | undefined];

/**
 * Sends the instructions to whoever pays (a relative, another phone): the share sheet where the
 * browser has the Web Share API, else "Copy all", which copies them (and fires pay-copy, field
 * `instructions`) and says so on the button.
 */
export function shareButton({ messages: m, copies, copy }: ResultView, lines: ShareLine[]): TemplateResult {
  const text = lines.flatMap(([term, value]) => (value ? [term ? `${term}: ${value}` : value] : [])).join('\n');
  const sheet = typeof navigator.share === 'function';
  const share = () => (sheet ? navigator.share({ text }).catch(() => {}) : copy('instructions', text));
  const result = copies.instructions;
  return html`<button type="button" @click=${share}>${
    sheet ? m.share : result === 'copied' ? m.copyDone : m.copyAll
  }</button>
    ${result === 'failed' ? html`<p part="error">${m.copyFailed}</p>` : nothing}`;
}

/**
 * While `status-url` is asked: one status line, as large as its longest text so that nothing moves:
 * waiting, "Checking with your bank…" while the customer's own check is out, what that check found,
 * or, once the asking gave up, what to do. Then the ways on, and after LONG_WAIT_MS, under them (the
 * screen does not move when it appears), not to pay again and the reference to give the shop.
 */
export function waiting(view: ResultView, paymentReference: string): TemplateResult {
  const { messages: m, status, poll, wait, reset } = view;
  const check = poll?.check;
  const line =
    status === 'unconfirmed' ? m.notConfirmed : check === 'checking' ? m.checking : (checkFound(m, check) ?? m.waiting);
  const [before, after] = m.stillWaiting.split('{reference}');
  return html`${
    status
      ? html`<p part="status">
          <span class="spinner ${status === 'waiting' ? '' : 'unseen'}" aria-hidden="true"></span>
          <span class="stack">${oneOf(
            [m.waiting, m.checking, m.notReceived, m.checkFailed, m.notConfirmed],
            line,
          )}</span>
        </p>`
      : nothing
  }
    <div class="actions">
      ${poll ? html`<button type="button" @click=${() => sentMoney(view, poll)}>${m.sentMoney}</button>` : nothing}
      <button type="button" @click=${reset}>${m.payAnotherWay}</button>
    </div>
    ${
      wait.waitedLong && status !== 'unconfirmed'
        ? html`<p class="value note">${before}${grouped(paymentReference)}${after}</p>`
        : nothing
    }`;
}

/** "I've sent the money": asks at once, saying so, then what the check found unless it ended the wait. */
async function sentMoney({ messages: m, announce }: ResultView, poll: Poll): Promise<void> {
  if (poll.check === 'checking') return;
  announce(m.checking);
  const found = checkFound(m, await poll.recheck());
  if (found) announce(found);
}

/** What the customer's own check found, when it is over and the wait goes on. */
function checkFound(m: Messages, check: PaidCheck): string | undefined {
  return check === 'pending' ? m.notReceived : check === 'failed' ? m.checkFailed : undefined;
}
