// What GET shows: the payments a query selects (under the count of what needs a person), or their
// CSV export; and one entry with its history and the forms that act on it.
import { csvDocument } from '../ledger/csv.js';
import { parseLedgerDate, parseLedgerUntil } from '../ledger/dates.js';
import { historyOf } from '../ledger/history.js';
import type { LedgerQuery } from '../ledger/queries.js';
import type { PaymentState, PaymentStore } from '../stores/types.js';
import { newToken, tokenCookie, tokenFromCookie } from './csrf.js';
import { attentionLine, document, entryBody, escape, listBody } from './html.js';
import { BadRequest, HEADERS, reply } from './responses.js';

/** The count of what needs a person stops here ("1000+"): enough to say how much there is to do. */
const ATTENTION_COUNTED = 1_000;
const STATES: readonly string[] = ['PENDING', 'SUCCESS', 'FAILED'];

/** The list (`?state=…&since=…&until=…&search=…&attention=1`), or with `format=csv` its export. */
export async function listView(payments: PaymentStore, params: URLSearchParams): Promise<Response> {
  const { query, filters } = readQuery(params);
  if (params.get('format') === 'csv') {
    const csv = csvDocument(await payments.list!({ ...query, limit: Number.MAX_SAFE_INTEGER }));
    return new Response(csv, {
      headers: {
        ...HEADERS,
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="payments.csv"',
      },
    });
  }
  const needing = await payments.list!({ needsAttention: true, limit: ATTENTION_COUNTED + 1 });
  const attention = attentionLine({
    shown: Math.min(needing.length, ATTENTION_COUNTED),
    more: needing.length > ATTENTION_COUNTED,
  });
  return reply(200, document('Payments', attention + listBody(await payments.list!(query), query, filters)));
}

/** One entry (`?ref=REF`), with `notice` saying what an action just did; `canRecheck` offers the gateway button. */
export async function entryView(
  payments: PaymentStore,
  request: Request,
  reference: string,
  notice: string | undefined,
  canRecheck: boolean,
): Promise<Response> {
  const payment = await payments.get(reference);
  if (!payment)
    return reply(
      404,
      document(
        'No such payment',
        `<p>No payment with reference ${escape(reference)}.</p><p><a href="?">All payments</a></p>`,
      ),
    );
  // The forms carry the token the cookie holds, made now when the browser has none yet.
  const kept = tokenFromCookie(request);
  const token = kept ?? newToken();
  const html = document(
    `Payment ${reference}`,
    entryBody(payment, await historyOf(payments, payment), canRecheck, notice, token),
  );
  return reply(200, html, kept ? {} : { 'set-cookie': tokenCookie(token, new URL(request.url)) });
}

function readQuery(params: URLSearchParams): { query: LedgerQuery; filters: Record<string, string> } {
  const filters = Object.fromEntries(
    [...params].filter(([name]) => ['state', 'since', 'until', 'search'].includes(name)),
  );
  const query: LedgerQuery = {};
  if (params.get('attention') === '1') query.needsAttention = true;
  if (filters.state) {
    if (!STATES.includes(filters.state)) throw new BadRequest('State must be PENDING, SUCCESS or FAILED.');
    query.state = filters.state as PaymentState;
  }
  if (filters.since) query.since = parseLedgerDate(filters.since) ?? badDate(filters.since);
  if (filters.until) query.until = parseLedgerUntil(filters.until) ?? badDate(filters.until);
  if (filters.search) query.search = filters.search;
  return { query, filters };
}

function badDate(text: string): never {
  throw new BadRequest(`${text} is not a date like 2026-11-28.`);
}
