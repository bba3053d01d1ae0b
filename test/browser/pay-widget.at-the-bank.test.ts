/**
 * What a customer needs at the bank (issue 18): the transfer account's rules and countdown, a new account once it has
 * run out, "I've sent the money", the calm line after 10 minutes, and the fee (dialling on each kind of device:
 * pay-widget.dialling.test.ts). Time is a controlled clock (src/element/clock.ts) and the status schedule's timers are
 * held, so nothing here waits on the wall clock.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { english as en } from '../strings.js';
import {
  button,
  controlledClock,
  deferred,
  fillTransfer,
  fillUssd,
  heading,
  holdTimers,
  idempotencyKeys,
  json,
  nextEvent,
  orderFor,
  part,
  restoreAll,
  root,
  route,
  SESSION_URL,
  STATUS_URL,
  stubFetch,
  submitUntil,
  text,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  USSD_PAYMENTS,
  ussdEnvelope,
  widget,
  type FetchCall,
  type PayWidget,
} from './helpers.js';

const MINUTE = 60_000;

const liveRegion = (el: PayWidget) => root(el).querySelector('[role="status"]')!;
const timer = (el: PayWidget) => root(el).querySelector('[role="timer"]');

/** The session's order for a transfer: ₦7,250 with a ₦50 fee in it, the account valid for 30 minutes from now, as the server measured it. */
const transferOrder = () => ({
  ...orderFor(TRANSFER_PAYMENTS),
  fee: '50',
  expiresAt: new Date(Date.now() + 30 * MINUTE).toISOString(),
  expiresInMs: 30 * MINUTE,
});

async function transferResult(
  attributes: Record<string, string> = {},
  status?: (call: FetchCall, index: number) => Response | Promise<Response>,
) {
  const calls = stubFetch(route({ session: () => json(transferEnvelope(TRANSFER_PAYMENTS, transferOrder())), status }));
  const el = await widget({ 'session-url': SESSION_URL, ...attributes });
  await fillTransfer(el);
  await submitUntil(el, 'pay-initiated');
  return { el, calls };
}

let clock: ReturnType<typeof controlledClock>;

describe('<pay-widget> at the bank', () => {
  before(async function () {
    this.timeout(30_000);
    // @ts-expect-error axe-core's browser build has no module types; it registers window.axe.
    await import('axe-core/axe.min.js');
  });
  beforeEach(() => (clock = controlledClock()));
  afterEach(() => {
    clock.restore();
    restoreAll();
  });

  describe('the transfer screen', () => {
    it('says to send the exact amount and that the account is for this payment only, and shows the fee', async () => {
      const { el } = await transferResult();
      expect(text(el)).to.contain(en.exactAmount).and.to.contain(en.accountForThisPayment);
      expect(part(el, 'amount')!.textContent).to.equal('₦7,250.00');
      expect(part(el, 'amount')!.closest('.value')!.textContent).to.contain('includes ₦50.00 fee');
      await expect(el).to.be.accessible();
    });

    it('counts the validity down once a second, speaking it at a calm pace: every 5 minutes, each of the last 5, at 30 s, at the end', async () => {
      const { el } = await transferResult();
      expect(timer(el)!.textContent).to.equal('Valid for 30:00');
      const spoken: string[] = [];
      const observer = new MutationObserver(
        () => liveRegion(el).textContent && spoken.push(liveRegion(el).textContent!),
      );
      observer.observe(liveRegion(el), { childList: true, characterData: true, subtree: true });

      clock.advance(19_000);
      await el.updateComplete;
      expect(timer(el)!.textContent).to.equal('Valid for 29:41');
      await waitUntil(() => spoken.length === 1, 'the start is spoken');
      // Every second to the end, as the widget's clock ticks: what is spoken, and when.
      const spokenAt: string[] = [];
      for (let left = 29 * MINUTE + 40_000; left >= 0; left -= 1_000) {
        const before = spoken.length;
        clock.advance(1_000);
        await el.updateComplete;
        await el.updateComplete; // the live region is emptied, then filled
        if (spoken.length > before) spokenAt.push(`${timer(el)?.textContent ?? 'expired'}: ${spoken.at(-1)}`);
      }
      observer.disconnect();
      expect(spoken[0]).to.equal('30 minutes left to make the transfer');
      expect(spokenAt).to.deep.equal([
        'Valid for 25:00: 25 minutes left to make the transfer',
        'Valid for 20:00: 20 minutes left to make the transfer',
        'Valid for 15:00: 15 minutes left to make the transfer',
        'Valid for 10:00: 10 minutes left to make the transfer',
        'Valid for 5:00: 5 minutes left to make the transfer',
        'Valid for 4:00: 4 minutes left to make the transfer',
        'Valid for 3:00: 3 minutes left to make the transfer',
        'Valid for 2:00: 2 minutes left to make the transfer',
        'Valid for 1:00: 1 minute left to make the transfer',
        'Valid for 0:30: 30 seconds left to make the transfer',
        `expired: ${en.accountClosed}. ${en.accountExpired}`,
      ]);
      expect(timer(el)).to.equal(null);
      expect(text(el)).to.contain(en.accountExpired);
      await expect(el).to.be.accessible();
    });

    it('offers a new account once it has run out: a new attempt with a new key, the same details', async () => {
      const { el, calls } = await transferResult();
      clock.advance(30 * MINUTE);
      await el.updateComplete;
      const again = nextEvent(el, 'pay-initiated');
      button(el, en.newAccount)!.click();
      await again;
      await el.updateComplete;
      const sessions = calls.filter((call) => call.url.pathname === SESSION_URL);
      expect(sessions).to.have.length(2);
      const [first, second] = idempotencyKeys(sessions);
      expect(second).to.be.a('string').and.not.equal(first);
      expect(JSON.parse(sessions[1]!.body!)).to.deep.equal(JSON.parse(sessions[0]!.body!));
      expect(timer(el)!.textContent, 'the new account counts from now').to.equal('Valid for 30:00');
    });

    it('shows no countdown when the server gave no expiry', async () => {
      stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget();
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      expect(timer(el)).to.equal(null);
      expect(text(el)).not.to.contain('Valid for');
    });
  });

  describe('"I’ve sent the money"', () => {
    it('asks the status endpoint once, at once, with recheck=1, says it is checking, then that it has not arrived, and keeps polling', async () => {
      const timers = holdTimers();
      const answer = deferred<Response>();
      const { el, calls } = await transferResult({ 'status-url': STATUS_URL }, () => answer.promise);
      expect(timers.pending(2_000), 'the first scheduled look-up').to.equal(1);

      button(el, en.sentMoney)!.click();
      await el.updateComplete;
      const statuses = () => calls.filter((call) => call.url.pathname === STATUS_URL);
      expect(statuses()).to.have.length(1);
      expect(statuses()[0]!.url.searchParams.get('recheck')).to.equal('1');
      expect(statuses()[0]!.url.searchParams.get('paymentReference')).to.equal(TRANSFER_PAYMENTS.paymentReference);
      expect(part(el, 'status')!.textContent).to.contain(en.checking);
      await waitUntil(() => liveRegion(el).textContent === en.checking, 'checking is spoken');
      await expect(el).to.be.accessible();

      button(el, en.sentMoney)!.click(); // a second press while checking sends nothing more
      answer.resolve(json({ status: 'PENDING' }));
      await waitUntil(() => text(el).includes(en.notReceived), 'not received yet');
      expect(statuses()).to.have.length(1);
      expect(part(el, 'status')!.textContent, 'the status line says so (its spinner still turns)').to.contain(
        en.notReceived,
      );
      await waitUntil(() => liveRegion(el).textContent === en.notReceived, 'not received is spoken');
      expect(timers.pending(2_000), 'polling goes on').to.equal(1);
      await expect(el).to.be.accessible();
    });

    it('shows the outcome when the re-query finds the payment', async () => {
      holdTimers();
      const { el, calls } = await transferResult({ 'status-url': STATUS_URL }, () => json({ status: 'SUCCESS' }));
      const completed = nextEvent(el, 'pay-complete');
      button(el, en.sentMoney)!.click();
      expect((await completed).detail.status).to.equal('SUCCESS');
      await el.updateComplete;
      expect(heading(el)!.textContent).to.equal(en.SUCCESSTitle);
      expect(text(el)).to.contain('includes ₦50.00 fee');
      expect(calls.filter((call) => call.url.searchParams.get('recheck') === '1')).to.have.length(1);
    });

    it('says so when the check could not be made, and keeps polling', async () => {
      const timers = holdTimers();
      const { el } = await transferResult({ 'status-url': STATUS_URL }, () => json({ status: 'ERROR' }, 503));
      button(el, en.sentMoney)!.click();
      await waitUntil(() => text(el).includes(en.checkFailed), 'could not check');
      expect(timers.pending(2_000)).to.equal(1);
    });

    it('is not offered without a status-url to ask', async () => {
      const { el } = await transferResult();
      expect(button(el, en.sentMoney)).to.equal(undefined);
    });
  });

  describe('after 10 minutes still waiting', () => {
    it('says calmly not to pay again and which reference to give the shop, on the USSD screen', async () => {
      holdTimers();
      stubFetch(route({ session: () => json(ussdEnvelope()), status: () => json({ status: 'PENDING' }) }));
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL });
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      const line = () => root(el).querySelector('.note');
      clock.advance(10 * MINUTE - 1_000);
      await el.updateComplete;
      expect(line()).to.equal(null);
      clock.advance(1_000);
      await el.updateComplete;
      expect(line()!.textContent).to.equal(
        `Still waiting? Do not pay again. If money has left your account, give the shop this payment reference: ${USSD_PAYMENTS.paymentReference}`,
      );
      await expect(el).to.be.accessible();
    });

    it('stops counting when the customer leaves the screen', async () => {
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      expect(clock.ticking()).to.equal(1);
      el.reset();
      await el.updateComplete;
      expect(clock.ticking()).to.equal(0);
    });
  });

  describe('the fee', () => {
    it("shows under the amount on the USSD screen, in the language's currency format", async () => {
      stubFetch(
        route({ session: () => json(ussdEnvelope(USSD_PAYMENTS, { ...orderFor(USSD_PAYMENTS), fee: '107.5' })) }),
      );
      const el = await widget({ 'session-url': SESSION_URL, locale: 'fr' });
      await waitUntil(() => root(el).querySelector('[lang]')?.getAttribute('lang') === 'fr', 'French arrives');
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      const amount = [...root(el).querySelectorAll('dd')].find((dd) => dd.textContent!.includes('7'))!;
      const collapsed = (node: Element) => node.textContent!.replace(/\s+/g, ' ').trim();
      expect(collapsed(amount)).to.match(/^7 250,00 ₦/);
      expect(collapsed(amount.querySelector('small')!)).to.equal('dont 107,50 ₦ de frais');
    });

    it('is left out when the order gives none, or one that is not part of the amount', async () => {
      stubFetch(
        route({ session: () => json(ussdEnvelope(USSD_PAYMENTS, { ...orderFor(USSD_PAYMENTS), fee: '9000' })) }),
      );
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      expect(text(el)).to.contain('₦7,250.00').and.not.to.contain('fee');
    });
  });
});
