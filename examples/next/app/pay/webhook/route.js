// POST /pay/webhook: the gateway's notifications (the sandbox's too), verified with the gateway
// before onPaid runs.
import { pay } from '../../../lib/pay.js';

export const POST = (request) => pay().webhook(request);
