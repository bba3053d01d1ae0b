/**
 * Issue 26: the transfer account's countdown on the server's clock, and the account once it has run
 * out. The session answer's `order.expiresInMs` is the time left as the server measured it; the
 * widget counts from its arrival on a monotonic clock (the controlled clock of clock.ts here), so a
 * phone whose clock is wrong (`Date.now` moved below) still shows the right time. The status
 * schedule's timers are held: nothing waits on the wall clock.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { english as en } from '../strings.js';
import { messages as ha } from '../../src/element/messages/ha.js';
import {
  button,
  controlledClock,
  fillTransfer,
  holdTimers,
  json,
  nextEvent,
  orderFor,
  part,
  parts,
  restoreAll,
  root,
  route,
  STATUS_URL,
  stubFetch,
  submitUntil,
  text,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  widget,
} from './helpers.js';
import { loadTranslation } from '../../src/element/translations.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const timer = (el: HTMLElement) => el.shadowRoot!.querySelector('[role="timer"]');

const realDateNow = Date.now;
/** The phone's clock, `skew` ms off the server's (which is this machine's). */
function phoneClockOff(skew: number): void {
  Date.now = () => realDateNow() + skew;
}

/** The account as the server gives it: valid 30 minutes (`transferValidityMs`'s default) from the server's now; `expiresInMs` unless a hand-written back end leaves it out. */
function serverOrder({ withTimeLeft = true, validFor = 30 * MINUTE } = {}) {
  const order = { ...orderFor(TRANSFER_PAYMENTS), expiresAt: new Date(realDateNow() + validFor).toISOString() };
  return withTimeLeft ? { ...order, expiresInMs: validFor } : order;
}

async function transferScreen(order: object, attributes: Record<string, string> = {}) {
  const calls = stubFetch(
    route({
      session: () => json(transferEnvelope(TRANSFER_PAYMENTS, order)),
      status: () => json({ status: 'PENDING' }),
    }),
  );
  const el = await widget({ 'session-url': '/pay/session', ...attributes });
  await fillTransfer(el);
  await submitUntil(el, 'pay-initiated');
  return { el, calls };
}

let clock: ReturnType<typeof controlledClock>;

describe('<pay-widget> countdown on the server’s clock (issue 26)', () => {
  before(async function () {
    this.timeout(30_000);
    // @ts-expect-error axe-core's browser build has no module types; it registers window.axe.
    await import('axe-core/axe.min.js');
  });
  afterEach(() => {
    Date.now = realDateNow;
    clock.restore();
    restoreAll();
  });

  for (const [phone, skew] of [
    ['35 minutes fast', 35 * MINUTE],
    ['2 hours slow', -2 * HOUR],
  ] as const) {
    it(`shows the account valid for 30:00, and counts it down, on a phone ${phone}`, async () => {
      phoneClockOff(skew);
      clock = controlledClock(Date.now()); // the widget's clock reads the phone's time where it trusts it
      const { el } = await transferScreen(serverOrder());
      expect(timer(el)?.textContent).to.equal('Valid for 30:00');
      expect(text(el)).not.to.contain(en.accountExpired);
      clock.advance(61_000);
      await el.updateComplete;
      expect(timer(el)?.textContent).to.equal('Valid for 28:59');
    });
  }

  it('gives a valid new account on a phone 35 minutes fast, after the first ran out', async () => {
    phoneClockOff(35 * MINUTE);
    clock = controlledClock(Date.now());
    const { el, calls } = await transferScreen(serverOrder());
    clock.advance(30 * MINUTE);
    await el.updateComplete;
    const again = nextEvent(el, 'pay-initiated');
    button(el, en.newAccount)!.click();
    await again;
    await el.updateComplete;
    expect(calls.filter((call) => call.url.pathname === '/pay/session')).to.have.length(2);
    expect(timer(el)?.textContent).to.equal('Valid for 30:00');
  });

  it('takes off the minutes the phone slept: locked 10 minutes, the account is valid 10 minutes less, and says so', async () => {
    clock = controlledClock(Date.now());
    const { el } = await transferScreen(serverOrder());
    const live = root(el).querySelector('[role="status"]')!;
    clock.advance(1_000);
    await el.updateComplete;
    expect(timer(el)?.textContent).to.equal('Valid for 29:59');
    // Locked 10 minutes: no tick, and the monotonic clock (performance.now on Android, iOS, macOS,
    // Linux) stood still; then the first tick, a second after waking.
    phoneClockOff(10 * MINUTE + 1_000);
    clock.advance(1_000);
    await el.updateComplete;
    await el.updateComplete; // the live region is emptied, then says it
    expect(timer(el)?.textContent).to.equal('Valid for 19:58');
    expect(live.textContent).to.equal(en.minutesLeft.replace('{minutes}', '20'));
    // A phone clock set back meanwhile takes nothing off and adds nothing.
    phoneClockOff(-5 * MINUTE);
    clock.advance(1_000);
    await el.updateComplete;
    expect(timer(el)?.textContent).to.equal('Valid for 19:57');
  });

  it('falls back on expiresAt against the phone’s clock when a hand-written back end sends no expiresInMs', async () => {
    clock = controlledClock(Date.now());
    const { el } = await transferScreen(serverOrder({ withTimeLeft: false }));
    expect(timer(el)?.textContent).to.match(/^Valid for (30:00|29:59)$/);
  });

  it('speaks the time left in the widget’s language (Hausa here)', async () => {
    clock = controlledClock(Date.now());
    await loadTranslation('ha'); // the strings are there from the first render: what is tested is what they say
    const { el } = await transferScreen({ ...serverOrder(), expiresInMs: 95_000 }, { locale: 'ha' });
    const live = root(el).querySelector('[role="status"]')!;
    const spoken: string[] = [];
    new MutationObserver(() => live.textContent && spoken.push(live.textContent)).observe(live, {
      childList: true,
      characterData: true,
      subtree: true,
    });
    for (let second = 0; second < 66; second++) {
      clock.advance(1_000);
      await el.updateComplete;
      await el.updateComplete;
    }
    expect(spoken.slice(-3)).to.deep.equal([
      ha.minutesLeft.replace('{minutes}', '2'),
      ha.oneMinuteLeft,
      ha.secondsLeft.replace('{seconds}', '30'),
    ]);
  });

  for (const [validFor, stopsAt] of [
    [30, 50],
    [120, 140], // a shop's longer `transferValidityMs`
  ] as const) {
    it(`keeps asking after an account valid ${validFor} minutes ran out: "I’ve sent the money" is still there a minute on, and the asking stops at ${stopsAt}`, async () => {
      const timers = holdTimers();
      clock = controlledClock(Date.now());
      const { el } = await transferScreen(serverOrder({ validFor: validFor * MINUTE }), { 'status-url': STATUS_URL });
      const start = clock.now();
      const minutesOn = async (minutes: number) => {
        phoneClockOff(minutes * MINUTE); // the phone's clock and the monotonic one move together: awake
        clock.advance(minutes * MINUTE - (clock.now() - start));
        timers.fire(); // the schedule's next look-up
        // Answered: the next look-up is due in 10 s, or the asking gave up.
        await waitUntil(() => timers.pending(10_000) > 0 || text(el).includes(en.notConfirmed), 'the look-up answered');
        await el.updateComplete;
      };
      await minutesOn(validFor + 1);
      expect(text(el)).to.contain(en.accountExpired);
      expect(button(el, en.sentMoney), 'a transfer made just before expiry may still arrive').to.exist;
      expect(text(el)).not.to.contain(en.notConfirmed);
      await minutesOn(stopsAt + 1);
      expect(text(el)).to.contain(en.notConfirmed);
      expect([timers.pending(2_000), timers.pending(10_000)], 'no look-up left').to.deep.equal([0, 0]);
    });
  }

  it('announces an account that has already run out when its screen shows as closed, without reading out the account to transfer to', async () => {
    clock = controlledClock(Date.now());
    const { el } = await transferScreen({ ...serverOrder(), expiresInMs: 0 });
    const live = root(el).querySelector('[role="status"]')!;
    expect(live.textContent).to.equal(en.accountClosed);
    expect(live.textContent).not.to.contain(TRANSFER_PAYMENTS.accountNumber);
  });

  it('once run out: the account has closed, struck through, not large; nothing to copy or share, nothing asks for a transfer; "I’ve sent the money" still checks; a new account offered', async () => {
    const timers = holdTimers();
    clock = controlledClock(Date.now());
    const { el, calls } = await transferScreen(serverOrder(), { 'status-url': STATUS_URL });
    expect(part(el, 'account-number')!.textContent).to.equal(TRANSFER_PAYMENTS.accountNumber);
    clock.advance(30 * MINUTE);
    await el.updateComplete;

    expect(root(el).querySelector('h2')!.textContent, 'the heading (issue 36)').to.equal(en.accountClosed);
    expect(text(el)).to.contain(en.accountExpired);
    for (const invitation of [
      en.transferTitle,
      en.transferSteps,
      en.exactAmount,
      en.accountForThisPayment,
      en.share,
      en.copyAll,
    ]) {
      expect(text(el), 'nothing asks for a transfer (issue 36)').not.to.contain(invitation);
    }
    expect(part(el, 'account-number'), 'no longer shown large').to.equal(null);
    const struck = root(el).querySelector('dd s');
    expect(struck?.textContent, 'still there to compare, struck through').to.equal(TRANSFER_PAYMENTS.accountNumber);
    expect(getComputedStyle(struck!).textDecorationLine).to.equal('line-through');
    expect(button(el, en.copyAccountNumber), 'no copy button for the account').to.equal(undefined);
    expect(parts(el, 'copy-button'), 'not the amount either (issue 36)').to.deep.equal([]);
    expect(button(el, en.newAccount)).to.exist;
    await expect(el).to.be.accessible();

    const sent = button(el, en.sentMoney)!;
    sent.click();
    await el.updateComplete;
    const rechecks = calls.filter(
      (call) => call.url.pathname === STATUS_URL && call.url.searchParams.get('recheck') === '1',
    );
    expect(rechecks, 'a transfer made just before expiry may still arrive').to.have.length(1);
    expect(timers.pending()).to.be.greaterThan(0);
  });
});
