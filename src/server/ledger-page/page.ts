// createLedgerPage: the ledger for a person, behind the shop's own login, as one Fetch-API handler
// mounted at one path. GET lists the payments (what needs a person, a state, dates, a search),
// `?ref=REF` shows one with its history, `?format=csv` exports them; POST (from the page itself
// only) rechecks, retries or resolves one, then shows it. Every request passes `authorize` first.
// Merchant code never runs here: a retry or a recheck leaves `onPaid` to the server's next sweep.
import { LEDGER_STYLES } from './styles.js';
import { readBodyText } from '../../contract/body-text.js';
import { newToken, tokenCookie, tokenFromCookie, tokensMatch } from './csrf.js';
import type { Gateway } from '../gateway/gateway.js';
import { resolveEntry, retryFulfilment, type ActionResult } from '../ledger/actions.js';
import { csvDocument } from '../ledger/csv.js';
import { parseLedgerDate, parseLedgerUntil } from '../ledger/dates.js';
import { historyOf } from '../ledger/history.js';
import type { LedgerQuery } from '../ledger/queries.js';
import { recheckEntry, recheckSentence } from '../settlement/recheck.js';
import type { PaymentState, PaymentStore } from '../stores/types.js';
import { attentionLine, document, listBody, entryBody, escape } from './html.js';

export type LedgerPageOptions = {
  stores: { payments: PaymentStore };
  /** To ask the gateway about a payment now ("Ask the gateway now"); without it the page offers no recheck. */
  gateway?: Pick<Gateway, 'query'>;
  /** Your login: true lets the request in. Called for every request, before anything is read. */
  authorize: (request: Request) => boolean | Promise<boolean>;
  now?: () => number;
};

const HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
};
const MAX_FORM_BYTES = 8_192;
/** The count of what needs a person stops here ("1000+"): enough to say how much there is to do. */
const ATTENTION_COUNTED = 1_000;
const STATES: readonly string[] = ['PENDING', 'SUCCESS', 'FAILED'];

class BadRequest extends Error {}

export function createLedgerPage(options: LedgerPageOptions): (request: Request) => Promise<Response> {
  if (typeof options?.authorize !== 'function')
    throw new TypeError('createLedgerPage: authorize(request) is required: the ledger holds customer details');
  if (typeof options.stores?.payments?.list !== 'function')
    throw new TypeError('createLedgerPage: the payment store cannot list its payments');
  const { payments } = options.stores;
  const now = options.now ?? Date.now;

  return async (request) => {
    if (!(await options.authorize(request)))
      return reply(401, document('Not signed in', '<p>Sign in to see the ledger.</p>'));
    try {
      if (request.method === 'POST') return await act(request);
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return reply(405, document('Not allowed', '<p>GET or POST only.</p>'), { allow: 'GET, HEAD, POST' });
      const url = new URL(request.url);
      if (url.searchParams.has('styles'))
        return new Response(LEDGER_STYLES, { headers: { ...HEADERS, 'content-type': 'text/css; charset=utf-8' } });
      const reference = url.searchParams.get('ref');
      if (reference !== null) return await show(request, reference, url.searchParams.get('done') ?? undefined);
      const { query, filters } = readQuery(url.searchParams);
      if (url.searchParams.get('format') === 'csv') {
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
    } catch (error) {
      if (error instanceof BadRequest)
        return reply(
          400,
          document('Not understood', `<p>${escape(error.message)}</p><p><a href="?">All payments</a></p>`),
        );
      throw error;
    }
  };

  async function show(request: Request, reference: string, notice: string | undefined): Promise<Response> {
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
      entryBody(payment, await historyOf(payments, payment), options.gateway !== undefined, notice, token),
    );
    return reply(200, html, kept ? {} : { 'set-cookie': tokenCookie(token, new URL(request.url)) });
  }

  async function act(request: Request): Promise<Response> {
    if (!sameOrigin(request))
      return reply(403, document('Refused', '<p>Actions are taken from the ledger page itself.</p>'));
    const form = await readForm(request);
    if (!tokensMatch(tokenFromCookie(request), form.get('csrf'))) {
      return reply(
        403,
        document(
          'Refused',
          '<p>This form has expired or was not sent by the ledger page: open the payment again and retry.</p>',
        ),
      );
    }
    const reference = form.get('ref') ?? '';
    let notice: string;
    switch (form.get('action')) {
      case 'retry':
        notice = outcome(
          await retryFulfilment(payments, reference, now()),
          "onPaid is due now: the server's next sweep runs it.",
        );
        break;
      case 'resolve': {
        const note = (form.get('note') ?? '').trim();
        if (!note) throw new BadRequest('Say what was done (refunded, accepted, contacted…).');
        notice = outcome(
          await resolveEntry(payments, reference, note, now()),
          'Resolved: it no longer needs a person.',
        );
        break;
      }
      case 'recheck': {
        if (!options.gateway) throw new BadRequest('This page was given no gateway to ask.');
        const result = await recheckEntry(payments, reference, options.gateway, now);
        if (result.kind === 'unknown') throw new BadRequest(`No payment with reference ${reference}.`);
        notice = recheckSentence(reference, result);
        break;
      }
      default:
        throw new BadRequest('Unknown action.');
    }
    const back = new URL(request.url);
    back.search = new URLSearchParams({ ref: reference, done: notice }).toString();
    return new Response(null, { status: 303, headers: { ...HEADERS, location: back.pathname + back.search } });
  }
}

function outcome(result: ActionResult, done: string): string {
  if (result.kind === 'unknown') throw new BadRequest('No payment with that reference.');
  if (result.kind === 'refused') throw new BadRequest(result.reason);
  return done;
}

/**
 * A form posted by the page itself, as the browser says: Sec-Fetch-Site where it is sent, else
 * Origin. Anything else may be a forged cross-site post (the CSRF token is checked besides).
 */
function sameOrigin(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site === 'same-origin';
  const origin = request.headers.get('origin');
  return origin === null || origin === new URL(request.url).origin;
}

async function readForm(request: Request): Promise<URLSearchParams> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded'))
    throw new BadRequest('Post the page’s form.');
  const body = await readBodyText(request, MAX_FORM_BYTES);
  if (!body.ok)
    throw new BadRequest(body.reason === 'too-large' ? 'That form is too large.' : 'That form could not be read.');
  return new URLSearchParams(body.text);
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

function reply(status: number, html: string, headers: Record<string, string> = {}): Response {
  return new Response(html, {
    status,
    headers: { ...HEADERS, 'content-type': 'text/html; charset=utf-8', ...headers },
  });
}
