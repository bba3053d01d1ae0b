// The ledger as CSV for a spreadsheet (`pay-widget ledger export --csv`, the ledger page): one row a
// payment, RFC 4180 (CRLF line ends, fields quoted when they hold a comma, a quote or a line break),
// and a cell a spreadsheet would read as a formula starting with an apostrophe.
import type { Payment } from '../stores/types.js';
import { attentionOf } from './queries.js';

export const CSV_COLUMNS = [
  'reference',
  'created',
  'amount',
  'currency',
  'type',
  'state',
  'stale',
  'fulfilled_at',
  'needs_attention',
  'review',
  'amount_received',
  'resolved_note',
  'gateway_code',
  'customer_name',
  'customer_phone',
  'customer_email',
] as const;

/** One export row: the entry's fields as text, in {@link CSV_COLUMNS} order. */
export function csvRecord(payment: Payment): string[] {
  const { review, customer } = payment;
  return [
    payment.paymentReference,
    new Date(payment.createdAt).toISOString(),
    payment.amount,
    payment.currency,
    payment.paymentType,
    payment.state,
    payment.stale ? 'yes' : '',
    payment.fulfilledAt === undefined ? '' : new Date(payment.fulfilledAt).toISOString(),
    attentionOf(payment) ?? '',
    review?.reason ?? '',
    review?.amountReceived ?? '',
    payment.resolved?.note ?? '',
    payment.gatewayCode ?? '',
    customer?.name ?? '',
    customer?.phone ?? '',
    customer?.email ?? '',
  ];
}

/**
 * One CSV field. A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is what
 * spreadsheets run as a formula (CSV injection): it gets a leading apostrophe, which they show as text.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The whole export: the header and a row a payment, with no line end after the last. */
export function csvDocument(payments: readonly Payment[]): string {
  return (csvLine(CSV_COLUMNS) + payments.map((payment) => csvLine(csvRecord(payment))).join('')).replace(/\r\n$/, '');
}
