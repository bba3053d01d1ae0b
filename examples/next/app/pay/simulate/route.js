// POST /pay/simulate, sandbox only: "the customer paid", as the customer would on their phone; the
// sandbox then posts its webhook to /pay/webhook. 404 with the real gateway; 403 unless it is
// plainly the person at this machine (lib/gateway-mode.js: `npm run sandbox` listens on 127.0.0.1
// only, and a proxy or tunnel in front of it is told apart by its headers and its Host).
import { fromThisMachine } from '../../../lib/gateway-mode.js';
import { pay } from '../../../lib/pay.js';

export async function POST(request) {
  const { sandbox } = pay();
  if (!sandbox) return new Response('Not found', { status: 404 });
  if (!fromThisMachine(request))
    return new Response('The sandbox’s /pay/simulate answers only the person at this machine.', { status: 403 });
  const { paymentReference } = await request.json().catch(() => ({}));
  return new Response(null, { status: sandbox.setStatus(String(paymentReference), 'SUCCESS') ? 204 : 404 });
}
