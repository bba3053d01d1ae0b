// What a person asks of the ledger (`pay-widget ledger list`, the ledger page): which entries need
// them, and which match a state, a time window or a search text (a reference, a phone number, an
// e-mail address or a name, in part). One meaning, written three ways: in JavaScript for the stores
// that keep entries as objects (memory, Redis), and as SQL for SQLite and PostgreSQL.
import type { LedgerQuery, Payment } from '../stores/types.js';

export type { LedgerQuery } from '../stores/types.js';

export const DEFAULT_LIST_LIMIT = 200;

/**
 * What about the entry needs a person, in a few words, or nothing: a review (another amount, or
 * paid after it had failed), a payment nobody could confirm (`stale`), or an `onPaid` that has not
 * yet returned after a try. A person's `resolve` removes the review and the stale mark.
 */
export function attentionOf(payment: Payment): string | undefined {
  if (payment.review) return `review: ${payment.review.reason}`;
  if (payment.stale) return 'stale: never confirmed';
  if (payment.state === 'SUCCESS' && payment.fulfilledAt === undefined && (payment.fulfilAttempts ?? 0) > 0) {
    return `onPaid failing (${payment.fulfilAttempts} tries)`;
  }
  return undefined;
}

/** The search text as compared: lower case, and its digits for phone numbers (a leading 0 dropped, so 0803… finds +234 803…). */
export function searchTerms(search: string): { text: string; digits: string } {
  const digits = search.replace(/\D/g, '');
  return {
    text: search.trim().toLowerCase(),
    digits: /^[\d\s()+-]+$/.test(search.trim()) ? digits.replace(/^0+/, '') : '',
  };
}

/** Whether `payment` is one `query` selects (its limit aside). */
export function matches(payment: Payment, query: LedgerQuery): boolean {
  if (query.needsAttention && attentionOf(payment) === undefined) return false;
  if (query.state !== undefined && payment.state !== query.state) return false;
  if (query.since !== undefined && payment.createdAt < query.since) return false;
  if (query.until !== undefined && payment.createdAt >= query.until) return false;
  if (query.search === undefined || query.search.trim() === '') return true;
  const { text, digits } = searchTerms(query.search);
  const { name = '', email = '', phone = '' } = payment.customer ?? {};
  if ([payment.paymentReference, name, email].some((field) => field.toLowerCase().includes(text))) return true;
  return digits !== '' && phone.replace(/\D/g, '').includes(digits);
}

/** The entries of `all` that `query` selects, the newest first, at most its limit. */
export function selectEntries(all: Iterable<Payment>, query: LedgerQuery): Payment[] {
  const selected = [...all].filter((payment) => matches(payment, query));
  selected.sort((a, b) => b.createdAt - a.createdAt || a.paymentReference.localeCompare(b.paymentReference));
  return selected.slice(0, listLimit(query));
}

export function listLimit(query: LedgerQuery): number {
  return Math.max(0, Math.floor(query.limit ?? DEFAULT_LIST_LIMIT));
}

type Sql = { where: string; values: unknown[] };

/**
 * The WHERE clause (after `WHERE`) and its values for `query` over the ledger's table, whose
 * entry JSON is in `payment`. `field(path)` reads a JSON field as text; `placeholder(n)` names
 * the nth value.
 */
function whereSql(query: LedgerQuery, dialect: SqlDialect): Sql {
  const values: unknown[] = [];
  const value = (v: unknown) => {
    values.push(v);
    return dialect.placeholder(values.length);
  };
  const clauses: string[] = [];
  const number = (path: string) => dialect.number(path);
  if (query.needsAttention) {
    clauses.push(`(${dialect.has('review')} OR ${dialect.isTrue('stale')}
      OR (state = 'SUCCESS' AND NOT ${dialect.has('fulfilledAt')} AND coalesce(${number('fulfilAttempts')}, 0) > 0))`);
  }
  if (query.state !== undefined) clauses.push(`state = ${value(query.state)}`);
  if (query.since !== undefined) clauses.push(`${number('createdAt')} >= ${value(query.since)}`);
  if (query.until !== undefined) clauses.push(`${number('createdAt')} < ${value(query.until)}`);
  if (query.search !== undefined && query.search.trim() !== '') {
    const { text, digits } = searchTerms(query.search);
    const contains = (expression: string, term: string) => `${dialect.contains(`lower(${expression})`, value(term))}`;
    const parts = [
      contains('reference', text),
      contains(`coalesce(${dialect.text('customer', 'name')}, '')`, text),
      contains(`coalesce(${dialect.text('customer', 'email')}, '')`, text),
    ];
    if (digits !== '')
      parts.push(dialect.contains(dialect.digits(`coalesce(${dialect.text('customer', 'phone')}, '')`), value(digits)));
    clauses.push(`(${parts.join(' OR ')})`);
  }
  return { where: clauses.length === 0 ? 'TRUE' : clauses.join(' AND '), values };
}

export type SqlDialect = {
  placeholder(n: number): string;
  /** The JSON field at `path` as text. */
  text(...path: string[]): string;
  number(field: string): string;
  has(field: string): string;
  isTrue(field: string): string;
  contains(haystack: string, needle: string): string;
  digits(expression: string): string;
};

export const SQLITE_DIALECT: SqlDialect = {
  placeholder: () => '?',
  text: (...path) => `json_extract(payment, '$.${path.join('.')}')`,
  number: (field) => `json_extract(payment, '$.${field}')`,
  has: (field) => `(json_type(payment, '$.${field}') IS NOT NULL)`,
  isTrue: (field) => `(json_extract(payment, '$.${field}') = 1)`,
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
  digits: (expression) =>
    ['+', ' ', '-', '(', ')', '.'].reduce((text, character) => `replace(${text}, '${character}', '')`, expression),
};

export const POSTGRES_DIALECT: SqlDialect = {
  placeholder: (n) => `$${n}`,
  text: (...path) => `(payment #>> '{${path.join(',')}}')`,
  number: (field) => `((payment ->> '${field}')::double precision)`,
  has: (field) => `(payment ? '${field}')`,
  isTrue: (field) => `coalesce((payment ->> '${field}')::boolean, false)`,
  contains: (haystack, needle) => `strpos(${haystack}, ${needle}::text) > 0`,
  digits: (expression) => `regexp_replace(${expression}, '[^0-9]', '', 'g')`,
};

/** The SELECT of the entries `query` selects from `table`, newest first. */
export function listSql(
  table: string,
  columns: string,
  query: LedgerQuery,
  dialect: SqlDialect,
): { text: string; values: unknown[] } {
  const { where, values } = whereSql(query, dialect);
  values.push(listLimit(query));
  // A search reads every row anyway: in table order, not the creation index's (`+` keeps SQLite off the index).
  const newest = `${query.search ? '+' : ''}${dialect.number('createdAt')}`;
  return {
    text: `SELECT ${columns} FROM ${table} WHERE ${where}
      ORDER BY ${newest} DESC, reference LIMIT ${dialect.placeholder(values.length)}`,
    values,
  };
}
