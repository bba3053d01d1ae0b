// createLedgerPage: the ledger for a person, behind the shop's own login, as one Fetch-API handler
// mounted at one path. GET lists the payments (what needs a person, a state, dates, a search),
// `?ref=REF` shows one with its history, `?format=csv` exports them (views.ts); POST (from the page
// itself only) rechecks, retries or resolves one, then shows it (form-actions.ts). Every request
// passes `authorize` first.
import type { Gateway } from '../gateway/gateway.js';
import type { PaymentStore } from '../stores/types.js';
import { act } from './form-actions.js';
import { document } from './html.js';
import { BadRequest, badRequestReply, reply, stylesheet } from './responses.js';
import { entryView, listView } from './views.js';

export type LedgerPageOptions = {
  stores: { payments: PaymentStore };
  /** To ask the gateway about a payment now ("Ask the gateway now"); without it the page offers no recheck. */
  gateway?: Pick<Gateway, 'query'>;
  /** Your login: true lets the request in. Called for every request, before anything is read. */
  authorize: (request: Request) => boolean | Promise<boolean>;
  now?: () => number;
};

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
      if (request.method === 'POST') return await act(request, { payments, gateway: options.gateway, now });
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return reply(405, document('Not allowed', '<p>GET or POST only.</p>'), { allow: 'GET, HEAD, POST' });
      const { searchParams } = new URL(request.url);
      if (searchParams.has('styles')) return stylesheet();
      const reference = searchParams.get('ref');
      if (reference === null) return await listView(payments, searchParams);
      const notice = searchParams.get('done') ?? undefined;
      return await entryView(payments, request, reference, notice, options.gateway !== undefined);
    } catch (error) {
      if (error instanceof BadRequest) return badRequestReply(error);
      throw error;
    }
  };
}
