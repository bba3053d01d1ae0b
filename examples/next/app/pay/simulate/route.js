// POST /pay/simulate, sandbox only: "the customer paid" (or `"status": "FAILED"`), as the customer
// would on their phone; the sandbox then posts its webhook to /pay/webhook. 404 with the real
// gateway; 403 unless the caller is this machine (as `next start` reports it in X-Forwarded-For:
// `npm run sandbox` listens on 127.0.0.1 only, where no one else can write that header).
import { isLoopback } from '../../../lib/gateway-mode.js';
import { clientAddress, pay } from '../../../lib/pay.js';

export async function POST(request) {
  const { sandbox } = pay();
  if (!sandbox) return new Response('Not found', { status: 404 });
  if (!isLoopback(clientAddress(request))) return new Response('The sandbox’s /pay/simulate answers only on this machine.', { status: 403 });
  const { paymentReference, status } = await request.json().catch(() => ({}));
  const known = sandbox.setStatus(String(paymentReference), status === 'FAILED' ? 'FAILED' : 'SUCCESS');
  return new Response(null, { status: known ? 204 : 404 });
}
