// Before any check: a valid session request every 2 s until one reaches the sandbox, read for the
// mistake that stops the back end from being checked at all. The first answer that names one ends
// the wait at once: a body parser mounted first, a throwing order resolver, an order that refuses
// (a cart shop given no cart), a payment started with another gateway (never a second: it may be a
// real one), the sandbox refusing the back end's keys.
import { answered, type MerchantClient, type Reply } from './merchant.js';
import type { ObservedSandbox } from './observed-sandbox.js';
import { errorText, ORDER_REFUSED } from './payment.js';
import { newKey, ussdRequest } from './requests.js';

const RETRY_EVERY_MS = 2_000;

/** Resolves once the back end used the sandbox; otherwise to the one line that says what to fix. */
export async function waitForBackEnd(
  merchant: MerchantClient,
  gateway: ObservedSandbox,
  waitMs: number,
  log: (line: string) => void,
): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    const before = gateway.requestCount();
    const reply = await merchant.session(ussdRequest(), { key: newKey() });
    if (gateway.requestCount() > before) return gateway.refusedSetting();
    const mistake = mistakeShownBy(reply);
    if (mistake) return mistake;
    const why = `a session request to ${merchant.urls.sessionUrl} got ${answered(reply)} and never reached the sandbox`;
    if (Date.now() + RETRY_EVERY_MS > deadline) return `${why}: start the back end with the settings above`;
    if (!told) log(`Waiting for your back end to use the sandbox (${why})…`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
  }
}

/**
 * What an answer that never reached the sandbox shows, when it shows something: the back end is up
 * and answered in the contract's terms, so waiting longer would change nothing. No answer, or one
 * outside the contract (a 404, a proxy's page), may be a back end still starting: undefined.
 */
function mistakeShownBy(reply: Reply): string | undefined {
  const body = reply.json as { order?: { paymentReference?: unknown }; error?: { code?: unknown } } | undefined;
  if (reply.status === 200 && body?.order) {
    return `the back end started payment ${String(body.order.paymentReference)} with another gateway, not this sandbox; stopped after that one request so that no more start there: restart it with the settings above`;
  }
  const code = body?.error?.code;
  if (typeof code !== 'string') return undefined;
  const answer = `the session endpoint answered ${answered(reply)} ${code}${errorText(reply)} before asking the gateway`;
  if (code === 'config')
    return `${answer}: a body parser read the request first, so mount the handler before body parsers (express.json()); if it is mounted first, its order's callbackUrl and redirectUrl must be https`;
  if (code === 'order_refused') return `${answer}: ${ORDER_REFUSED}`;
  if (code === 'internal')
    return `${answer}: the order resolver (order) threw, or beforeInitiate did; your server's onEvent has the error (internal-error, where: "order")`;
  return `${answer}: if it is not using this sandbox (another gateway, or none), restart it with the settings above; stopped so that no payment starts elsewhere`;
}
