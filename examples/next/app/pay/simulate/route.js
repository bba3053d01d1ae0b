// POST /pay/simulate, sandbox only: "the customer paid" (or `"status": "FAILED"`), as the customer
// would on their phone; the sandbox then posts its webhook to /pay/webhook. 404 with the real gateway.
import { pay } from '../../../lib/pay.js';

export async function POST(request) {
  const { sandbox } = pay();
  if (!sandbox) return new Response('Not found', { status: 404 });
  const { paymentReference, status } = await request.json().catch(() => ({}));
  const known = sandbox.setStatus(String(paymentReference), status === 'FAILED' ? 'FAILED' : 'SUCCESS');
  return new Response(null, { status: known ? 204 : 404 });
}
