// What `pay-widget ledger` prints: the list as a table (or JSON), and one entry with its history
// (the CSV export is src/server/ledger/csv.ts).
import type { HistoryEvent } from '../server/ledger/history.js';
import { attentionOf } from '../server/ledger/queries.js';
import type { Payment } from '../server/stores/types.js';

/** A time as people at the shop read it in a list: UTC, to the second. */
export function when(ms: number | undefined): string {
  return ms === undefined
    ? ''
    : new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}

function fulfilled(payment: Payment): string {
  if (payment.state !== 'SUCCESS') return '-';
  return payment.fulfilledAt === undefined ? 'no' : 'yes';
}

function stateOf(payment: Payment): string {
  if (payment.initiation === 'refused') return 'never started';
  return payment.stale ? 'PENDING (stale)' : payment.state;
}

/** The list's row for an entry: what the table shows, and `--json` gives. */
export function listRow(payment: Payment) {
  return {
    reference: payment.paymentReference,
    created: when(payment.createdAt),
    amount: `${payment.amount} ${payment.currency}`,
    type: payment.paymentType,
    state: stateOf(payment),
    fulfilled: fulfilled(payment),
    needs: attentionOf(payment) ?? '',
  };
}

/** Columns padded to their widest cell; control characters shown as `?` so a value cannot move the terminal. */
export function table(payments: Payment[]): string[] {
  const header = {
    reference: 'REFERENCE',
    created: 'CREATED',
    amount: 'AMOUNT',
    type: 'TYPE',
    state: 'STATE',
    fulfilled: 'FULFILLED',
    needs: 'NEEDS A PERSON',
  };
  const rows = [header, ...payments.map(listRow)].map((row) => Object.values(row).map(printable));
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/** `show`: the entry, field by field, then its history. */
export function entryLines(payment: Payment, history: HistoryEvent[]): string[] {
  const { customer, review, resolved } = payment;
  const fields: [string, string | undefined][] = [
    ['reference', payment.paymentReference],
    ['state', listRow(payment).state],
    ['amount', `${payment.amount} ${payment.currency}`],
    ['type', payment.paymentType],
    ['created', when(payment.createdAt)],
    ['updated', when(payment.updatedAt)],
    ['customer', customer && [customer.name, customer.phone, customer.email].filter(Boolean).join(', ')],
    ['gateway code', payment.gatewayCode],
    ['last asked', when(payment.checkedAt) || undefined],
    ['fulfilled', payment.fulfilledAt === undefined ? fulfilled(payment) : when(payment.fulfilledAt)],
    ['onPaid tries', payment.fulfilAttempts === undefined ? undefined : String(payment.fulfilAttempts)],
    ['next due', when(payment.dueAt) || undefined],
    [
      'review',
      review &&
        `${review.reason} since ${when(review.since)}${review.amountReceived ? `, ${review.amountReceived} ${review.currencyReceived ?? payment.currency} received` : ''}`,
    ],
    ['resolved', resolved && `${when(resolved.at)}: ${resolved.note}`],
    ['needs a person', attentionOf(payment)],
  ];
  const lines = fields
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${`${name}:`.padEnd(16)}${printable(value!)}`);
  lines.push('', history.length === 0 ? 'history: none kept' : 'history:');
  for (const event of history) {
    lines.push(
      `  ${when(event.at)}  ${event.what}${event.detail ? `  ${printable(event.detail)}` : ''}${event.by ? `  (by a ${event.by})` : ''}`,
    );
  }
  return lines;
}
