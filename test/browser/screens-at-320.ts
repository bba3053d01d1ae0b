/**
 * Issue 26, "Readable at 320 px" (used by pay-widget.screens.narrow.test.ts and pay-widget.transfer.narrow.test.ts, two
 * files so that each finishes in the runner's time): every screen in every state on a 320 px phone screen, in every
 * language: nothing spills out of the widget (no element, and no word that does not wrap) and the page never scrolls
 * sideways; a reference wraps only between its groups; the transfer account's bank stands with its number; a details
 * row breaks only between words. Each case saves a screenshot of the widget to test-results/screen-<state>-<locale>.png
 * for a person to look at (pay-widget.at-the-bank.narrow.test.ts does the same for the states of issue 18).
 */
import { expect, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { LOCALES } from '../strings.js';
import type { Messages } from '../../src/element/messages/index.js';
import {
  lineBreaks,
  button,
  clickSubmit,
  controlledClock,
  emulateDevice,
  errorBody,
  fillTransfer,
  fillUssd,
  holdTimers,
  json,
  orderFor,
  part,
  restoreAll,
  root,
  route,
  screenshotOf,
  SESSION_URL,
  spilledOut,
  STATUS_URL,
  stubClipboard,
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

export const MINUTE = 60_000;
/** What the server makes when the order resolver gives none: `pw-` and 32 hex digits. */
export const LONG_REFERENCE = 'pw-3f9a0c1d7b2e48a6905fd3c1e27b8a44';
/** A long reference, and an account name as long as real ones get. */
export const LONG_TRANSFER = {
  ...TRANSFER_PAYMENTS,
  paymentReference: LONG_REFERENCE,
  bankName: 'Providus Bank',
  walletName: 'Chukwuemeka Okonkwo-Adebayo Enterprises / Oluwaseun Ade',
};

export let clock: ReturnType<typeof controlledClock>;
let timers: ReturnType<typeof holdTimers>;

async function widgetIn(
  locale: string,
  status?: () => Response | Promise<Response>,
  session?: () => Response,
): Promise<PayWidget> {
  stubFetch(route({ session, status }));
  const el = await widget({ 'session-url': SESSION_URL, 'status-url': status && STATUS_URL, locale, amount: '7250' });
  await waitUntil(
    () => root(el).querySelector('[lang]')?.getAttribute('lang') === locale,
    `the ${locale} strings arrive`,
  );
  return el;
}

async function ussd(locale: string, status?: () => Response | Promise<Response>): Promise<PayWidget> {
  const el = await widgetIn(locale, status, () =>
    json(ussdEnvelope(USSD_PAYMENTS, { ...orderFor(USSD_PAYMENTS), fee: '107.5' })),
  );
  await fillUssd(el);
  await submitUntil(el, 'pay-initiated');
  return el;
}

export async function transfer(locale: string, status?: () => Response | Promise<Response>): Promise<PayWidget> {
  const order = {
    ...orderFor(LONG_TRANSFER),
    fee: '107.5',
    expiresAt: new Date(Date.now() + 30 * MINUTE).toISOString(),
    expiresInMs: 30 * MINUTE,
  };
  const el = await widgetIn(locale, status, () => json(transferEnvelope(LONG_TRANSFER, order)));
  await fillTransfer(el);
  await submitUntil(el, 'pay-initiated');
  return el;
}

export const pending = () => json({ status: 'PENDING' });

/** Each state: how to reach it in a language, a string of that language it shows, and what else it must (not) show. */
export const STATES: Record<
  string,
  {
    reach: (locale: string, m: Messages) => Promise<PayWidget>;
    shows: (m: Messages) => string;
    check?: (el: PayWidget, m: Messages) => void;
  }
> = {
  'form-errors': {
    async reach(locale) {
      const el = await widgetIn(locale);
      clickSubmit(el);
      await el.updateComplete;
      return el;
    },
    shows: (m) => m.fullNameRequired,
  },
  'ussd-android': { reach: (locale) => ussd(locale, pending), shows: (m) => m.dialNow },
  'ussd-computer': {
    async reach(locale) {
      emulateDevice('windows');
      const el = await ussd(locale, pending);
      await waitUntil(() => root(el).querySelector('svg.qr path'), 'the QR code is drawn');
      return el;
    },
    shows: (m) => m.scanToDial,
  },
  transfer: { reach: (locale) => transfer(locale, pending), shows: (m) => m.accountNumber },
  'copy-failed': {
    async reach(locale) {
      stubClipboard(true);
      const el = await transfer(locale, pending);
      part(el, 'copy-button')!.click();
      await waitUntil(
        () => part(el, 'copy-button')!.textContent!.includes(LOCALES[locale]!.copyByHand),
        'the copy is refused',
      );
      return el;
    },
    shows: (m) => m.copyByHand,
  },
  'check-failed': {
    async reach(locale, m) {
      const el = await transfer(locale, () => json({ status: 'ERROR' }, 503));
      button(el, m.sentMoney)!.click();
      await waitUntil(() => part(el, 'status')!.textContent!.includes(m.checkFailed), 'the check fails');
      return el;
    },
    shows: (m) => m.checkFailed,
  },
  // Issue 36: once the account has run out, nothing asks for a transfer; a new account, and "I've sent the money" for
  // one made just before.
  'account-closed': {
    async reach(locale) {
      const el = await transfer(locale, pending);
      clock.advance(30 * MINUTE);
      await el.updateComplete;
      return el;
    },
    shows: (m) => m.accountClosed,
    check(el, m) {
      for (const invitation of [
        m.transferTitle,
        m.transferSteps,
        m.exactAmount,
        m.accountForThisPayment,
        m.share,
        m.copyAll,
      ]) {
        expect(text(el), 'no transfer invitation').not.to.contain(invitation.replace(/\s+/g, ' '));
      }
      expect(part(el, 'copy-button'), 'nothing to copy').to.equal(null);
      expect(root(el).querySelector('[role="timer"]'), 'no countdown').to.equal(null);
      expect(button(el, m.newAccount), m.newAccount).to.exist;
      expect(button(el, m.sentMoney), m.sentMoney).to.exist;
    },
  },
  'still-waiting-long-reference': {
    async reach(locale) {
      const el = await transfer(locale, pending);
      clock.advance(10 * MINUTE);
      await el.updateComplete;
      return el;
    },
    shows: (m) => m.stillWaiting.split('{')[0]!.trim(),
  },
  complete: {
    async reach(locale) {
      const el = await transfer(locale, () => json({ status: 'SUCCESS' }));
      timers.fire(); // the first status look-up
      await waitUntil(() => part(el, 'result')!.classList.contains('SUCCESS'), 'paid');
      return el;
    },
    shows: (m) => m.SUCCESSTitle,
  },
  failed: {
    async reach(locale) {
      const el = await transfer(locale, () => json({ status: 'FAILED' }));
      timers.fire(); // the first status look-up
      await waitUntil(() => part(el, 'result')!.classList.contains('FAILED'), 'failed');
      return el;
    },
    shows: (m) => m.FAILEDTitle,
  },
  error: {
    async reach(locale) {
      const body = errorBody('validation_failed', 'The request was refused', {
        mobileNumber: 'mobileNumber: expected 7 to 15 digits, received 0801234567890123456',
      });
      const el = await widgetIn(locale, undefined, () => json(body, 422));
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      return el;
    },
    shows: (m) => m.errorTitle,
  },
};

/** Checks each of `states` in every language at 320 px; `more` adds cases in the same setting. */
export function screensAt320(
  title: string,
  states: (keyof typeof STATES)[],
  more: () => void = () => {},
  locales = Object.keys(LOCALES),
): void {
  describe(title, function () {
    this.timeout(30_000);
    beforeEach(async () => {
      clock = controlledClock();
      timers = holdTimers();
      emulateDevice('android');
      await setViewport({ width: 320, height: 640 });
    });
    afterEach(async () => {
      clock.restore();
      restoreAll();
      await setViewport({ width: 800, height: 600 });
    });

    for (const state of states) {
      const { reach, shows, check } = STATES[state]!;
      for (const [locale, m] of Object.entries(LOCALES).filter(([locale]) => locales.includes(locale))) {
        it(`${state} in ${locale}: fits, nothing spills out or scrolls sideways`, async () => {
          const el = await reach(locale, m);
          await el.updateComplete;
          expect(text(el)).to.contain(shows(m).replace(/\s+/g, ' '));
          check?.(el, m);
          expect(el.getBoundingClientRect().right, 'the widget fits the screen').to.be.at.most(320);
          expect(document.documentElement.scrollWidth, 'no sideways scrolling').to.be.at.most(320);
          expect(spilledOut(el), 'nothing spills out, no word either').to.deep.equal([]);
          if (locale === 'en') await expect(el).to.be.accessible(); // once a state: axe takes seconds here
          await screenshotOf(el, `screen-${state}-${locale}`);
        });
      }
    }

    more();
  });
}
