// /pay/session, /pay/status and /pay/webhook: the payments handler, mounted once for every path
// under /pay/ (…/simulate, the sandbox's button, has its own route beside this one). OPTIONS
// answers the CORS preflight when the widget runs on another origin (allowedOrigins in lib/pay.js).
import { pay } from '../../../lib/pay.js';

export const POST = (request) => pay().payments.handler(request);
export const GET = POST;
export const OPTIONS = POST;
