// /admin/payments: every payment with its history, search, recheck, retry, resolve and CSV, for the
// shop's staff (lib/admin.js: HTTP Basic auth with PAY_ADMIN_PASSWORD; 404 without it).
import { ledgerPage } from '../../../lib/admin.js';

export async function GET(request) {
  const page = ledgerPage();
  return page ? page(request) : new Response('Not found', { status: 404 });
}
export const POST = GET;
