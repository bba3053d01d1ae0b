/**
 * The result screens' new states (issue 18) on a 320 px phone screen, in every language: nothing
 * spills out of the widget (no element, and no word that does not wrap: issue 26) or makes the page
 * scroll sideways. Each case saves a screenshot of the
 * widget to test-results/at-the-bank-<state>-<locale>.png for a person to look at.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { LOCALES } from '../strings.js';
import type { Messages } from '../../src/element/messages/index.js';
import {
  button,
  controlledClock,
  emulateDevice,
  fillTransfer,
  fillUssd,
  holdTimers,
  json,
  orderFor,
  restoreAll,
  root,
  route,
  screenshotOf,
  SESSION_URL,
  spilledOut,
  STATUS_URL,
  stubFetch,
  submitUntil,
  text,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  USSD_PAYMENTS,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

const MINUTE = 60_000;

let clock: ReturnType<typeof controlledClock>;

/** A result in `locale` once its strings have arrived: USSD or a transfer whose account is valid 30 minutes, both with a fee. */
async function result(
  locale: string,
  type: 'USSD' | 'TRANSFER',
  status: () => Response | Promise<Response>,
): Promise<PayWidget> {
  const order = (payments: { paymentReference: string }) => ({
    ...orderFor(payments),
    fee: '107.5',
    expiresAt: new Date(Date.now() + 30 * MINUTE).toISOString(),
    expiresInMs: 30 * MINUTE,
  });
  const envelope =
    type === 'USSD'
      ? ussdEnvelope(USSD_PAYMENTS, order(USSD_PAYMENTS))
      : transferEnvelope(TRANSFER_PAYMENTS, order(TRANSFER_PAYMENTS));
  stubFetch(route({ session: () => json(envelope), status }));
  const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, locale });
  await waitUntil(
    () => root(el).querySelector('[lang]')?.getAttribute('lang') === locale,
    `the ${locale} strings arrive`,
  );
  await (type === 'USSD' ? fillUssd(el) : fillTransfer(el));
  await submitUntil(el, 'pay-initiated');
  return el;
}

const pending = () => json({ status: 'PENDING' });
const never = () => new Promise<Response>(() => {});

/** Each new state: how to reach it in a language, and a string of that language it shows. */
const STATES: Record<
  string,
  { reach: (locale: string, m: Messages) => Promise<PayWidget>; shows: (m: Messages) => string }
> = {
  'transfer-countdown': { reach: (locale) => result(locale, 'TRANSFER', pending), shows: (m) => m.exactAmount },
  'transfer-expired': {
    async reach(locale) {
      const el = await result(locale, 'TRANSFER', pending);
      clock.advance(30 * MINUTE);
      return el;
    },
    shows: (m) => m.newAccount,
  },
  checking: {
    async reach(locale, m) {
      const el = await result(locale, 'TRANSFER', never);
      button(el, m.sentMoney)!.click();
      return el;
    },
    shows: (m) => m.checking,
  },
  'not-received': {
    async reach(locale, m) {
      const el = await result(locale, 'USSD', pending);
      button(el, m.sentMoney)!.click();
      await waitUntil(() => text(el).includes(m.notReceived.replace(/\s+/g, ' ')), 'not received yet');
      return el;
    },
    shows: (m) => m.notReceived,
  },
  'still-waiting': {
    async reach(locale) {
      const el = await result(locale, 'USSD', pending);
      clock.advance(10 * MINUTE);
      return el;
    },
    shows: (m) => m.stillWaiting.split('{')[0]!.trim(),
  },
  'ios-ussd': {
    async reach(locale) {
      emulateDevice('iphone');
      return result(locale, 'USSD', pending);
    },
    shows: (m) => m.pasteInPhone,
  },
};

describe('<pay-widget> at the bank, on a 320 px screen', function () {
  this.timeout(30_000);
  beforeEach(async () => {
    clock = controlledClock();
    holdTimers();
    emulateDevice('android'); // a 320 px screen is a phone's
    await setViewport({ width: 320, height: 640 });
  });
  afterEach(async () => {
    clock.restore();
    restoreAll();
    await setViewport({ width: 800, height: 600 });
  });

  for (const [state, { reach, shows }] of Object.entries(STATES)) {
    for (const [locale, m] of Object.entries(LOCALES)) {
      it(`${state} in ${locale}: fits, nothing spills out`, async () => {
        const el = await reach(locale, m);
        await el.updateComplete;
        expect(text(el)).to.contain(shows(m).replace(/\s+/g, ' '));
        expect(el.getBoundingClientRect().right, 'the widget fits the screen').to.be.at.most(320);
        expect(document.documentElement.scrollWidth, 'no sideways scrolling').to.be.at.most(320);
        expect(spilledOut(el), 'nothing spills out, no word either').to.deep.equal([]);
        await screenshotOf(el, `at-the-bank-${state}-${locale}`);
      });
    }
  }
});
