/**
 * What the resume tests share (pay-widget.resume.test.ts, pay-widget.kept-attempt.test.ts): a page
 * whose widget is paid up to the gateway's instructions, its back end with the requests counted,
 * a reload (the widget gone, a new one with the same attributes, sessionStorage kept), and the
 * phone's and the server's clocks, which a test moves.
 */
import type { PayEventMap } from '../../src/index.js';
import { load } from '../../src/element/loading/load.js';
import {
  json,
  orderFor,
  route,
  SESSION_URL,
  STATUS_URL,
  stubFetch,
  submitUntil,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  ussdEnvelope,
  widget,
  type FetchCall,
  type PayWidget,
} from './helpers.js';

export const MINUTE = 60_000;
export const PAGE = {
  'session-url': SESSION_URL,
  'status-url': STATUS_URL,
  amount: '5000',
  currency: 'NGN',
  'payment-reference': 'cart-42',
};

export const realDateNow = Date.now;
/** The server's clock: this machine's, `offset` ms on. */
export const server = { offset: 0 };
const serverNow = () => realDateNow() + server.offset;
/** Moves the phone's clock (`Date.now`) `ms` off this machine's. */
export const phoneClock = (ms: number) => (Date.now = () => realDateNow() + ms);

/** The session endpoint as our server answers: the account valid 30 minutes from its now, and the time left it measured. */
const transferBody = () =>
  transferEnvelope(TRANSFER_PAYMENTS, {
    ...orderFor(TRANSFER_PAYMENTS),
    expiresAt: new Date(serverNow() + 30 * MINUTE).toISOString(),
    expiresInMs: 30 * MINUTE,
  });

export type StatusAnswer = 'PENDING' | 'SUCCESS';
/** Our back end; from the session request `offlineFrom` (0 the first) on, the phone is offline. */
export function backEnd(status: () => StatusAnswer = () => 'PENDING', { offlineFrom = Infinity } = {}) {
  const calls = stubFetch(
    route({
      session: (call, index) =>
        index >= offlineFrom
          ? Promise.reject(new TypeError('Failed to fetch'))
          : json(JSON.parse(call.body!).paymentType === 'USSD' ? ussdEnvelope() : transferBody()),
      status: () => json({ status: status(), now: new Date(serverNow()).toISOString() }),
    }),
  );
  const sessions = () => calls.filter((call: FetchCall) => call.url.pathname === SESSION_URL).length;
  const statuses = () => calls.filter((call: FetchCall) => call.url.pathname === STATUS_URL).length;
  return { calls, sessions, statuses };
}

/**
 * The page loads again: the widgets `old` go, new ones with `attributes` (one each) come, in that
 * order; resolves with them and the `pay-resumed` each fired, if any.
 */
export async function reloadAll(old: PayWidget[], attributes: Record<string, string>[]) {
  // The file that shows a kept attempt again, which the page's first load never asked for: loaded
  // now (the tests' dev server compiles it on its first request), so that it is there within the wait below.
  await load('resume');
  for (const el of old) el.remove();
  const resumed = new Map<EventTarget | null, PayEventMap['pay-resumed'][]>();
  const listen = (event: Event) =>
    resumed.set(event.target, [...(resumed.get(event.target) ?? []), event as PayEventMap['pay-resumed']]);
  document.addEventListener('pay-resumed', listen);
  const els: PayWidget[] = [];
  for (const each of attributes) els.push(await widget(each));
  await new Promise((done) => setTimeout(done, 50)); // what runs after a submit, loaded
  await Promise.all(els.map((el) => el.updateComplete));
  document.removeEventListener('pay-resumed', listen);
  return els.map((el) => ({ el, resumed: resumed.get(el) ?? [] }));
}

/** The page loads again with one widget; resolves with it and its `pay-resumed`, if any. */
export async function reload(old: PayWidget, attributes: Record<string, string> = PAGE) {
  const [again] = await reloadAll([old], [attributes]);
  return again!;
}

/** A widget on `attributes`, filled by `fill` and paid until the gateway's instructions show. */
export async function paidUntilInstructions(
  fill: (el: PayWidget) => Promise<void>,
  attributes: Record<string, string> = PAGE,
): Promise<PayWidget> {
  const el = await widget(attributes);
  await fill(el);
  await submitUntil(el, 'pay-initiated');
  return el;
}
