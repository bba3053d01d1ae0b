// GET /pay/status: the widget's status-url, answered from the ledger (the server's amount).
import { pay } from '../../../lib/pay.js';

export const GET = (request) => pay().status(request);
export const OPTIONS = GET;
