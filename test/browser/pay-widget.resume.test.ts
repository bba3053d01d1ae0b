/**
 * Issue 26: the customer leaves the page to pay and comes back to a reloaded tab. A reload is a new
 * <pay-widget> with the same page, `session-url` and hints, the old one gone, sessionStorage kept
 * (as a reload, a discarded tab or an app switch leaves it). Requests are counted: a resume sends no
 * session request. The status schedule's timers are held; the widget's clock is controlled and
 * the phone's (`Date.now`) moved where a test says.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { english as en, LOCALES } from '../strings.js';
import type { PayEventMap } from '../../src/index.js';
import {
  button,
  control,
  controlledClock,
  BANK_CODE,
  fillTransfer,
  fillUssd,
  heading,
  holdTimers,
  nextEvent,
  part,
  restoreAll,
  root,
  SESSION_URL,
  submitUntil,
  text,
  TRANSFER_PAYMENTS,
  USSD_PAYMENTS,
  widget,
  type PayWidget,
} from './helpers.js';
import {
  backEnd,
  MINUTE,
  PAGE,
  paidUntilInstructions,
  phoneClock,
  realDateNow,
  reload,
  server,
} from './resume-helpers.js';

const timer = (el: PayWidget) => el.shadowRoot!.querySelector('[role="timer"]');

let clock: ReturnType<typeof controlledClock>;
let errors: unknown[];
const onError = (event: ErrorEvent | PromiseRejectionEvent) =>
  errors.push('reason' in event ? event.reason : event.error);

describe('<pay-widget> resumes after a reload (issue 26)', () => {
  before(async function () {
    this.timeout(30_000);
    // @ts-expect-error axe-core's browser build has no module types; it registers window.axe.
    await import('axe-core/axe.min.js');
  });
  beforeEach(() => {
    clock = controlledClock(performance.now());
    server.offset = 0;
    errors = [];
    addEventListener('error', onError);
    addEventListener('unhandledrejection', onError);
  });
  afterEach(() => {
    removeEventListener('error', onError);
    removeEventListener('unhandledrejection', onError);
    Date.now = realDateNow;
    clock.restore();
    restoreAll();
  });

  it('shows the same dial code again, asks the status at once, fires pay-resumed, and sends no second session request', async () => {
    const timers = holdTimers();
    const api = backEnd();
    const first = await paidUntilInstructions(fillUssd);
    expect(api.sessions()).to.equal(1);
    const statusesBefore = api.statuses();

    const { el, resumed } = await reload(first);
    expect(heading(el)?.textContent).to.equal(en.ussdTitle);
    expect(part(el, 'dial-code')?.textContent).to.equal(USSD_PAYMENTS.ussdDailCode);
    expect(text(el)).to.contain('₦7,250.00').and.to.contain('GTBank');
    expect(resumed.map((event) => event.detail)).to.deep.equal([
      { paymentType: 'USSD', paymentReference: USSD_PAYMENTS.paymentReference, amount: '7250', currency: 'NGN' },
    ]);
    expect(api.sessions(), 'no second session request').to.equal(1);
    expect(api.statuses(), 'the status asked at once, no timer fired').to.equal(statusesBefore + 1);
    expect(timers.pending(2_000), 'and polled on').to.equal(1);
    await expect(el).to.be.accessible();
    expect(errors).to.deep.equal([]);
  });

  it('shows the same account again with its countdown where it was, corrected by the server’s clock, and no second session request', async () => {
    holdTimers();
    const api = backEnd();
    const first = await paidUntilInstructions(fillTransfer);
    expect(timer(first)?.textContent).to.equal('Valid for 30:00');

    // 10 minutes in the bank app.
    server.offset = 10 * MINUTE;
    phoneClock(10 * MINUTE);
    const { el, resumed } = await reload(first);
    expect(part(el, 'account-number')?.textContent).to.equal(TRANSFER_PAYMENTS.accountNumber);
    expect(resumed.map((event) => event.detail.paymentReference)).to.deep.equal([TRANSFER_PAYMENTS.paymentReference]);
    expect(timer(el)?.textContent).to.equal('Valid for 20:00');
    expect(api.sessions()).to.equal(1);

    // 2 minutes more, and the phone's clock set half an hour forward meanwhile: the server's now puts it right.
    // (Set back, the attempt would have been kept in the future: dropped, pay-widget.kept-attempt.test.ts.)
    phoneClock(12 * MINUTE + 30 * MINUTE);
    server.offset = 12 * MINUTE;
    const second = await reload(el);
    await waitUntil(
      () => timer(second.el)?.textContent === 'Valid for 18:00',
      `the server's clock wins: ${timer(second.el)?.textContent}`,
    );
    clock.advance(1_000);
    await second.el.updateComplete;
    expect(timer(second.el)?.textContent).to.equal('Valid for 17:59');
    expect(api.sessions()).to.equal(1);
    expect(errors).to.deep.equal([]);
  });

  it('after a reload, "Get a new account" shows the transfer form, the customer’s details not kept; paid, it is a new account under a new key', async () => {
    holdTimers();
    const api = backEnd();
    const first = await paidUntilInstructions(fillTransfer);

    // Back from the bank app 31 minutes later, to a reloaded page whose form would show USSD.
    server.offset = 31 * MINUTE;
    phoneClock(31 * MINUTE);
    const { el } = await reload(first);
    expect(text(el)).to.contain(en.accountExpired);
    button(el, en.newAccount)!.click();
    await el.updateComplete;
    expect(
      root(el).querySelector<HTMLInputElement>('input[type="radio"]:checked')?.value,
      'the type it was paid with',
    ).to.equal('TRANSFER');
    expect(['fullName', 'email', 'mobileNumber'].map((name) => control(el, name).value)).to.deep.equal(['', '', '']);
    expect(root(el).querySelectorAll('[aria-invalid="true"]')).to.have.length(0);
    expect(api.sessions(), 'nothing sent without the customer').to.equal(1);

    await fillTransfer(el);
    await submitUntil(el, 'pay-initiated');
    const sessions = api.calls.filter((call) => call.url.pathname === SESSION_URL);
    expect(sessions).to.have.length(2);
    expect(JSON.parse(sessions[1]!.body!), 'the same customer, type and hints').to.deep.equal(
      JSON.parse(sessions[0]!.body!),
    );
    expect(sessions[1]!.headers.get('Idempotency-Key'), 'a new payment').not.to.equal(
      sessions[0]!.headers.get('Idempotency-Key'),
    );
    expect(part(el, 'account-number')?.textContent).to.equal(TRANSFER_PAYMENTS.accountNumber);
    expect(timer(el)?.textContent).to.equal('Valid for 30:00');
    expect(errors).to.deep.equal([]);
  });

  it('after a reload, "Pay another way" shows the form with the attempt’s bank, the customer’s details not kept, and no field errors', async () => {
    holdTimers();
    const api = backEnd();
    const first = await paidUntilInstructions(fillUssd);

    const { el } = await reload(first);
    button(el, en.payAnotherWay)!.click();
    await el.updateComplete;
    expect(part(el, 'form')).to.exist;
    expect(['fullName', 'email', 'mobileNumber', 'bankCode'].map((name) => control(el, name).value)).to.deep.equal([
      '',
      '',
      '',
      BANK_CODE,
    ]);
    expect(root(el).querySelectorAll('[aria-invalid="true"]')).to.have.length(0);
    expect(api.sessions()).to.equal(1);
    await expect(el).to.be.accessible();
  });

  it('shows a payment that completed meanwhile as complete, and after the next reload asks again: complete once the server says so', async () => {
    holdTimers();
    let paid = false;
    const api = backEnd(() => (paid ? 'SUCCESS' : 'PENDING'));
    const first = await paidUntilInstructions(fillUssd);

    paid = true; // the customer paid in the dialler; the tab was discarded meanwhile
    first.remove();
    const completed = new Promise<PayEventMap['pay-complete']>((done) =>
      document.addEventListener('pay-complete', (event) => done(event as PayEventMap['pay-complete']), { once: true }),
    );
    const el = await widget(PAGE);
    expect((await completed).detail.status).to.equal('SUCCESS');
    await el.updateComplete;
    expect(heading(el)?.textContent).to.equal(en.SUCCESSTitle);
    expect(api.sessions()).to.equal(1);

    const statuses = api.statuses();
    const again = await reload(el);
    await waitUntil(() => heading(again.el)?.textContent === en.SUCCESSTitle, 'complete again, never the form', {
      timeout: 900,
    }); // under holdTimers' 1 s
    expect(
      again.resumed.map((event) => event.detail.status),
      'how it ended is the server’s to say',
    ).to.deep.equal([undefined]);
    expect(api.statuses(), 'asked again').to.equal(statuses + 1);
    expect(part(again.el, 'dial-code')).to.equal(null);
  });

  it('forgets the attempt on reset() and on a new payment: the next reload shows the form', async () => {
    holdTimers();
    backEnd();
    const first = await paidUntilInstructions(fillUssd);
    first.reset();
    await first.updateComplete;
    const { el, resumed } = await reload(first);
    expect(part(el, 'form')).to.exist;
    expect(resumed).to.deep.equal([]);
    expect(sessionStorage.length).to.equal(0);
  });

  it('resumes only for the same session-url and hints', async () => {
    holdTimers();
    backEnd();
    const first = await paidUntilInstructions(fillUssd);
    for (const other of [
      { amount: '6000' },
      { 'payment-reference': 'cart-43' },
      { currency: 'USD' },
      { 'session-url': '/other/session' },
    ]) {
      const { el, resumed } = await reload(first, { ...PAGE, ...other });
      expect(part(el, 'form'), JSON.stringify(other)).to.exist;
      expect(resumed).to.deep.equal([]);
      el.remove();
    }
  });

  it('drops an attempt whose account ran out long ago', async () => {
    holdTimers();
    backEnd();
    const first = await paidUntilInstructions(fillTransfer);
    phoneClock(61 * MINUTE);
    const { el, resumed } = await reload(first);
    expect(part(el, 'form')).to.exist;
    expect(resumed).to.deep.equal([]);
    expect(sessionStorage.length).to.equal(0);
  });

  it('keeps a USSD attempt as long as its status is polled: a customer back 45 minutes later sees the payment received, not an empty form; 51 minutes later it is dropped', async () => {
    holdTimers();
    let paid = false;
    const api = backEnd(() => (paid ? 'SUCCESS' : 'PENDING'));
    const first = await paidUntilInstructions(fillUssd);
    paid = true; // dialled while the tab was discarded
    phoneClock(45 * MINUTE);
    const { el, resumed } = await reload(first);
    expect(resumed.map((event) => event.detail.paymentReference)).to.deep.equal([USSD_PAYMENTS.paymentReference]);
    await waitUntil(() => heading(el)?.textContent === en.SUCCESSTitle, 'the status asked at once says paid', {
      timeout: 900,
    }); // under holdTimers' 1 s
    expect(api.sessions(), 'no second payment').to.equal(1);
    el.remove();

    sessionStorage.clear();
    const again = await paidUntilInstructions(fillUssd);
    phoneClock(45 * MINUTE + 51 * MINUTE);
    const later = await reload(again);
    expect(part(later.el, 'form')).to.exist;
    expect(later.resumed).to.deep.equal([]);
    expect(sessionStorage.length).to.equal(0);
  });

  it('says a screen shown before its language arrived again in that language (a reload racing the language file)', async () => {
    holdTimers();
    backEnd();
    const first = await paidUntilInstructions(fillUssd);
    const { el } = await reload(first);
    const region = () => root(el).querySelector('[role="status"]')!;
    expect(region().textContent).to.equal(`${en.ussdTitle}: ${USSD_PAYMENTS.ussdDailCode}, ₦7,250.00`);
    el.locale = 'yo'; // its strings arrive after the screen showed
    await waitUntil(
      () => region().textContent!.startsWith(`${LOCALES.yo!.ussdTitle}: ${USSD_PAYMENTS.ussdDailCode}`),
      'said again in Yoruba',
      { timeout: 900 },
    ); // under holdTimers' 1 s
    expect(region().closest('[lang]')!.getAttribute('lang')).to.equal('yo');
    expect(heading(el)?.textContent).to.equal(LOCALES.yo!.ussdTitle);
  });

  it('drops what it cannot read under its name (not JSON, another shape), and shows the form', async () => {
    const api = backEnd();
    const name = `pay-widget ${location.pathname} ${PAGE['session-url']} ${PAGE['payment-reference']} ${PAGE.amount} ${PAGE.currency} 0`; // the page's first widget
    for (const garbage of [
      '{not json',
      '{"key":"k","keptAt":1,"instructions":{"paymentType":"USSD"},"request":{"paymentType":"USSD"}}',
      'null',
    ]) {
      sessionStorage.setItem(name, garbage);
      const el = await widget(PAGE);
      await new Promise((done) => setTimeout(done, 50));
      await el.updateComplete;
      expect(part(el, 'form'), garbage).to.exist;
      expect(sessionStorage.getItem(name), garbage).to.equal(null);
      el.remove();
    }
    expect(api.calls).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
  });

  it('keeps nothing with resume="off"', async () => {
    holdTimers();
    const api = backEnd();
    const first = await widget({ ...PAGE, resume: 'off' });
    await fillUssd(first);
    await submitUntil(first, 'pay-initiated');
    expect(sessionStorage.length).to.equal(0);
    const { el } = await reload(first, { ...PAGE, resume: 'off' });
    expect(part(el, 'form')).to.exist;
    expect(api.sessions()).to.equal(1);
  });

  describe('where storage is refused, works as before, without resume, and nothing throws', () => {
    const refusals: [string, () => () => void][] = [
      [
        'sessionStorage blocked (reading it throws)',
        () => {
          const original = Object.getOwnPropertyDescriptor(window, 'sessionStorage')!;
          Object.defineProperty(window, 'sessionStorage', {
            configurable: true,
            get: () => {
              throw new DOMException('The operation is insecure.', 'SecurityError');
            },
          });
          return () => Object.defineProperty(window, 'sessionStorage', original);
        },
      ],
      [
        'a full quota (writing throws)',
        () => {
          const setItem = Storage.prototype.setItem;
          Storage.prototype.setItem = () => {
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          };
          return () => (Storage.prototype.setItem = setItem);
        },
      ],
    ];
    for (const [refusal, refuse] of refusals) {
      it(refusal, async () => {
        holdTimers();
        const api = backEnd();
        const undo = refuse();
        try {
          const first = await widget(PAGE);
          await fillTransfer(first);
          const initiated = nextEvent(first, 'pay-initiated');
          await submitUntil(first, 'pay-initiated');
          await initiated.catch(() => {});
          expect(part(first, 'account-number')?.textContent).to.equal(TRANSFER_PAYMENTS.accountNumber);
          first.reset();
          await first.updateComplete;
          await fillTransfer(first);
          await submitUntil(first, 'pay-initiated');
          const { el, resumed } = await reload(first);
          expect(part(el, 'form')).to.exist;
          expect(resumed).to.deep.equal([]);
          expect(api.sessions()).to.equal(2);
        } finally {
          undo();
        }
        expect(errors).to.deep.equal([]);
      });
    }
  });
});
