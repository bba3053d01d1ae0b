// The ledger page's HTML: plain server-rendered markup, every value escaped, no script and no
// inline style (the page is served with a CSP that allows neither).
import type { HistoryEvent } from '../ledger/history.js';
import { attentionOf, type LedgerQuery } from '../ledger/queries.js';
import type { Payment } from '../stores/types.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

function when(ms: number | undefined): string {
  return ms === undefined
    ? ''
    : new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC');
}

function stateOf(payment: Payment): string {
  if (payment.initiation === 'refused') return 'never started';
  return payment.stale ? 'PENDING (stale)' : payment.state;
}

function fulfilledOf(payment: Payment): string {
  if (payment.state !== 'SUCCESS') return '–';
  return payment.fulfilledAt === undefined ? 'no' : 'yes';
}

export function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin"><title>${escape(title)}</title><link rel="stylesheet" href="?styles"></head>
<body><main>
<h1>${escape(title)}</h1>
${body}
</main></body></html>`;
}

/** How many payments need a person, on top of every list: `shown` of them counted, `more` when there are others. */
export function attentionLine({ shown, more }: { shown: number; more: boolean }): string {
  if (shown === 0) return '<p>Nothing needs a person.</p>';
  const count = `${shown}${more ? '+' : ''} ${shown === 1 && !more ? 'payment needs' : 'payments need'} a person`;
  return `<p><strong><a href="?attention=1">${count}</a></strong></p>`;
}

/** The filter form and the table of entries. */
export function listBody(payments: Payment[], query: LedgerQuery, filters: Record<string, string>): string {
  const checked = query.needsAttention ? ' checked' : '';
  const option = (state: string) => `<option${filters.state === state ? ' selected' : ''}>${state}</option>`;
  const form = `<form method="get" role="search">
<label><input type="checkbox" name="attention" value="1"${checked}> Needs a person</label>
<label>State <select name="state"><option value="">any</option>${['PENDING', 'SUCCESS', 'FAILED'].map(option).join('')}</select></label>
<label>From <input type="date" name="since" value="${escape(filters.since ?? '')}"></label>
<label>To <input type="date" name="until" value="${escape(filters.until ?? '')}"></label>
<label>Search <input type="search" name="search" value="${escape(filters.search ?? '')}" placeholder="reference, phone, e-mail or name"></label>
<button type="submit">Show</button>
</form>`;
  const rows = payments.map(
    (
      payment,
    ) => `<tr><td><a href="?ref=${encodeURIComponent(payment.paymentReference)}">${escape(payment.paymentReference)}</a></td>
<td>${escape(when(payment.createdAt))}</td><td>${escape(`${payment.amount} ${payment.currency}`)}</td><td>${escape(payment.paymentType)}</td>
<td>${escape(stateOf(payment))}</td><td>${fulfilledOf(payment)}</td><td>${escape(attentionOf(payment) ?? '')}</td></tr>`,
  );
  const table =
    payments.length === 0
      ? '<p>No payments match.</p>'
      : `<table><caption>${payments.length} payment${payments.length === 1 ? '' : 's'}, newest first</caption>
<thead><tr><th scope="col">Reference</th><th scope="col">Created</th><th scope="col">Amount</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">Fulfilled</th><th scope="col">Needs a person</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
  return `${form}\n${table}\n<p><a href="?format=csv">Export every payment as CSV</a></p>`;
}

/** One entry, its history and what a person may do to it. */
export function entryBody(
  payment: Payment,
  history: HistoryEvent[],
  canRecheck: boolean,
  notice: string | undefined,
  csrfToken: string,
): string {
  const { customer, review, resolved } = payment;
  const fields: [string, string | undefined][] = [
    ['State', stateOf(payment)],
    ['Amount', `${payment.amount} ${payment.currency}`],
    ['Type', payment.paymentType],
    ['Created', when(payment.createdAt)],
    ['Customer', customer && [customer.name, customer.phone, customer.email].filter(Boolean).join(', ')],
    ['Gateway code', payment.gatewayCode],
    ['Fulfilled', payment.fulfilledAt === undefined ? fulfilledOf(payment) : when(payment.fulfilledAt)],
    [
      'Review',
      review &&
        `${review.reason}${review.amountReceived ? `: ${review.amountReceived} ${review.currencyReceived ?? payment.currency} received` : ''}`,
    ],
    ['Resolved', resolved && `${when(resolved.at)}: ${resolved.note}`],
    ['Needs a person', attentionOf(payment)],
  ];
  const list = fields
    .filter(([, value]) => value)
    .map(([name, value]) => `<dt>${escape(name)}</dt><dd>${escape(value!)}</dd>`)
    .join('');
  const events = history
    .map(
      (event) =>
        `<li><time datetime="${new Date(event.at).toISOString()}">${escape(when(event.at))}</time> ${escape(event.what)}${event.detail ? `: ${escape(event.detail)}` : ''}${event.by ? ' (by a person)' : ''}</li>`,
    )
    .join('\n');
  const reference = `<input type="hidden" name="ref" value="${escape(payment.paymentReference)}"><input type="hidden" name="csrf" value="${escape(csrfToken)}">`;
  const action = (name: string, label: string, extra = '') =>
    `<form method="post">${reference}<input type="hidden" name="action" value="${name}">${extra}<button type="submit">${label}</button></form>`;
  const actions = [
    canRecheck ? action('recheck', 'Ask the gateway now') : '',
    action('retry', 'Run onPaid again'),
    review || payment.stale
      ? action('resolve', 'Resolve', '<label>What was done <input name="note" required maxlength="500"></label> ')
      : '',
  ].join('\n');
  return `${notice ? `<p role="status">${escape(notice)}</p>` : ''}
<dl>${list}</dl>
<h2>History</h2>
<ol>${events}</ol>
<h2>Act on it</h2>
${actions}
<p><a href="?">All payments</a></p>`;
}
