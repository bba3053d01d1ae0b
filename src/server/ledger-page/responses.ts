// The ledger page's responses, each with the same security headers (a CSP allowing no script, no
// framing, nothing cached); a BadRequest thrown while handling a request is answered 400 with its
// message.
import { document, escape } from './html.js';
import { LEDGER_STYLES } from './styles.js';

export const HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
};

/** Something in the request the page cannot act on; its message is shown to the person. */
export class BadRequest extends Error {}

export function reply(status: number, html: string, headers: Record<string, string> = {}): Response {
  return new Response(html, {
    status,
    headers: { ...HEADERS, 'content-type': 'text/html; charset=utf-8', ...headers },
  });
}

export function badRequestReply(error: BadRequest): Response {
  return reply(400, document('Not understood', `<p>${escape(error.message)}</p><p><a href="?">All payments</a></p>`));
}

/** The page's stylesheet, served at `?styles` (the CSP allows no inline style). */
export function stylesheet(): Response {
  return new Response(LEDGER_STYLES, { headers: { ...HEADERS, 'content-type': 'text/css; charset=utf-8' } });
}
