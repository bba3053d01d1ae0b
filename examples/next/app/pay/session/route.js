// POST /pay/session: the widget's session-url. OPTIONS answers the CORS preflight when the widget
// runs on another origin (list it in the session handler's allowedOrigins).
import { pay } from '../../../lib/pay.js';

export const POST = (request) => pay().session(request);
export const OPTIONS = POST;
