// The ledger page for the shop's staff (createLedgerPage), behind HTTP Basic auth as "admin" with
// PAY_ADMIN_PASSWORD; without that setting the page is not served at all.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createLedgerPage } from 'pay-widget/server';
import { pay } from './pay.js';

/** Whether the request's Basic credentials are `user` and `password`, compared in constant time. */
function signedIn(request, user, password) {
  const [scheme, encoded = ''] = (request.headers.get('authorization') ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic') return false;
  const digest = (text) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(Buffer.from(encoded, 'base64').toString()), digest(`${user}:${password}`));
}

const KEY = Symbol.for('pay-widget-example-next-ledger');

/** The page's handler, or undefined when PAY_ADMIN_PASSWORD is not set. */
export function ledgerPage() {
  const password = process.env.PAY_ADMIN_PASSWORD;
  if (!password) return undefined;
  const { stores, gateway } = pay();
  const page = (globalThis[KEY] ??= createLedgerPage({
    stores,
    gateway,
    authorize: (request) => signedIn(request, 'admin', password),
  }));
  return async (request) => {
    const response = await page(request);
    // A 401 that makes the browser ask for the credentials.
    if (response.status === 401) response.headers.set('www-authenticate', 'Basic realm="Payments", charset="UTF-8"');
    return response;
  };
}
