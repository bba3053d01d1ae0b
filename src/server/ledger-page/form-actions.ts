// What POST does: a form from the ledger page itself (same origin, with the CSRF token its cookie
// holds) rechecks, retries or resolves one entry, then sends the browser back to the entry with
// what happened. Merchant code never runs here: a retry or a recheck leaves `onPaid` to the
// server's next sweep.
import { readBodyText } from '../../contract/body-text.js';
import type { Gateway } from '../gateway/gateway.js';
import { resolveEntry, retryFulfilment, type ActionResult } from '../ledger/actions.js';
import { recheckEntry, recheckSentence } from '../settlement/recheck.js';
import type { PaymentStore } from '../stores/types.js';
import { tokenFromCookie, tokensMatch } from './csrf.js';
import { document } from './html.js';
import { BadRequest, HEADERS, reply } from './responses.js';

const MAX_FORM_BYTES = 8_192;

export type FormActionContext = {
  payments: PaymentStore;
  /** Without it, a recheck is refused. */
  gateway?: Pick<Gateway, 'query'>;
  now: () => number;
};

/** The posted form's action, done; throws BadRequest for a form it cannot act on. */
export async function act(request: Request, context: FormActionContext): Promise<Response> {
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
  const notice = await perform(form, reference, context);
  const back = new URL(request.url);
  back.search = new URLSearchParams({ ref: reference, done: notice }).toString();
  return new Response(null, { status: 303, headers: { ...HEADERS, location: back.pathname + back.search } });
}

/** Runs the form's `action` on the entry; the sentence shown on the entry afterwards. */
async function perform(form: URLSearchParams, reference: string, context: FormActionContext): Promise<string> {
  const { payments, gateway, now } = context;
  switch (form.get('action')) {
    case 'retry':
      return outcome(
        await retryFulfilment(payments, reference, now()),
        "onPaid is due now: the server's next sweep runs it.",
      );
    case 'resolve': {
      const note = (form.get('note') ?? '').trim();
      if (!note) throw new BadRequest('Say what was done (refunded, accepted, contacted…).');
      return outcome(await resolveEntry(payments, reference, note, now()), 'Resolved: it no longer needs a person.');
    }
    case 'recheck': {
      if (!gateway) throw new BadRequest('This page was given no gateway to ask.');
      const result = await recheckEntry(payments, reference, gateway, now);
      if (result.kind === 'unknown') throw new BadRequest(`No payment with reference ${reference}.`);
      return recheckSentence(reference, result);
    }
    default:
      throw new BadRequest('Unknown action.');
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
