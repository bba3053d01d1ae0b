/**
 * Issue 35 (finding 6): any script of the shop's origin can write the kept attempt in
 * sessionStorage. Here such a script plants or rewrites it, in whatever shape the widget keeps it
 * (JSON.parse's reviver sees every key), and the page reloads: the widget shows only what a session
 * answer could have said, never a payment as complete without the server, and keeps nothing of the
 * customer. Issue 36: identical widgets on one page each keep their own attempt.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { english as en } from '../strings.js';
import type { PayEventMap } from '../../src/index.js';
import {
  controlledClock,
  CUSTOMER,
  fillTransfer,
  fillUssd,
  heading,
  holdTimers,
  NORMALIZED_MOBILE,
  part,
  restoreAll,
  submitUntil,
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
  reloadAll,
  type StatusAnswer,
} from './resume-helpers.js';

const HOUR = 60 * MINUTE;

/** What sessionStorage holds, every key's value. */
const stored = () =>
  Array.from({ length: sessionStorage.length }, (_, index) => sessionStorage.getItem(sessionStorage.key(index)!)!);

/** Another script rewrites the one kept attempt: `change` is given every key and value, and returns the value to keep (undefined: none). */
function rewriteKept(change: (key: string, value: unknown) => unknown): void {
  const name = sessionStorage.key(0)!;
  sessionStorage.setItem(
    name,
    JSON.stringify(JSON.parse(sessionStorage.getItem(name)!, (key, value) => change(key, value))),
  );
}

/** A time the kept attempt holds (`keptAt`, and `runsOutAt` where the record has one), moved by `ms`. */
const moveTimes = (ms: number) => (key: string, value: unknown) =>
  key === 'keptAt' || key === 'runsOutAt' ? (value as number) + ms : value;

let clock: ReturnType<typeof controlledClock>;
let errors: unknown[];
const onError = (event: ErrorEvent | PromiseRejectionEvent) =>
  errors.push('reason' in event ? event.reason : event.error);

describe('<pay-widget> reads back its kept attempt as a session answer (issue 35, finding 6)', () => {
  beforeEach(() => {
    clock = controlledClock(performance.now());
    errors = [];
    addEventListener('error', onError);
    addEventListener('unhandledrejection', onError);
    sessionStorage.clear();
  });
  afterEach(() => {
    removeEventListener('error', onError);
    removeEventListener('unhandledrejection', onError);
    Date.now = realDateNow;
    clock.restore();
    restoreAll();
    sessionStorage.clear();
  });

  it('keeps nothing of the customer: no name, e-mail or phone number is stored (but in the gateway’s account name), and the attempt still resumes', async () => {
    holdTimers();
    backEnd();
    for (const [fill, shown] of [
      [fillUssd, 'dial-code'],
      [fillTransfer, 'account-number'],
    ] as const) {
      const first = await paidUntilInstructions(fill);
      expect(stored()).to.have.length(1);
      // The account's name as the gateway gave it, which the transfer screen shows, may be built with the customer's
      // (the sandbox's is).
      const kept = JSON.stringify(JSON.parse(stored()[0]!, (key, value) => (key === 'walletName' ? undefined : value)));
      for (const detail of [CUSTOMER.fullName, CUSTOMER.email, CUSTOMER.mobileNumber, NORMALIZED_MOBILE])
        expect(kept, detail).not.to.contain(detail);
      const { el } = await reload(first);
      expect(part(el, shown), shown).to.exist;
      el.remove();
      sessionStorage.clear();
    }
    expect(errors).to.deep.equal([]);
  });

  it('an attempt another script marked complete shows waiting: the status is asked at once, and "Payment received" shows only once the server says so', async () => {
    const timers = holdTimers();
    let status: StatusAnswer = 'PENDING';
    const api = backEnd(() => status);
    const first = await paidUntilInstructions(fillUssd);
    rewriteKept((key, value) =>
      key === '' || key === 'state'
        ? { ...(value as object), kind: 'complete', status: 'SUCCESS', message: undefined }
        : value,
    );
    const statuses = api.statuses();
    const completed: PayEventMap['pay-complete'][] = [];
    document.addEventListener('pay-complete', (event) => completed.push(event), { once: true });

    const { el, resumed } = await reload(first);
    expect(heading(el)?.textContent, 'waiting for the payment, not received').to.equal(en.ussdTitle);
    expect(part(el, 'dial-code')?.textContent).to.equal(USSD_PAYMENTS.ussdDailCode);
    expect(api.statuses(), 'the status asked at once').to.equal(statuses + 1);
    expect(resumed.map((event) => event.detail.status)).to.deep.equal([undefined]);
    expect(completed).to.deep.equal([]);

    status = 'SUCCESS';
    timers.fire();
    await waitUntil(() => heading(el)?.textContent === en.SUCCESSTitle, 'received once the server says so', {
      timeout: 900,
    });
    expect(completed.map((event) => event.detail.status)).to.deep.equal(['SUCCESS']);
    expect(errors).to.deep.equal([]);
  });

  const planted: [string, (el: PayWidget) => Promise<void>, (key: string, value: unknown) => unknown][] = [
    [
      'another account, kept two hours from now',
      fillTransfer,
      (key, value) => (key === 'accountNumber' ? '0123456789' : moveTimes(2 * HOUR)(key, value)),
    ],
    [
      'an account number that is none',
      fillTransfer,
      (key, value) => (key === 'accountNumber' ? 'DE89 3704 0044 0532 0130 00' : value),
    ],
    [
      'a dial code that is none',
      fillUssd,
      (key, value) => (/^ussdD(ia|ai)lCode$/.test(key) ? 'tel:+2348000000000' : value),
    ],
  ];
  for (const [what, fill, change] of planted) {
    it(`shows no planted payment as the shop's: ${what}`, async () => {
      holdTimers();
      const api = backEnd();
      const first = await paidUntilInstructions(fill);
      rewriteKept(change);
      const calls = api.calls.length;
      const { el, resumed } = await reload(first);
      expect(part(el, 'form')).to.exist;
      expect(part(el, 'account-number')).to.equal(null);
      expect(part(el, 'dial-code')).to.equal(null);
      expect(resumed).to.deep.equal([]);
      expect(sessionStorage.length, 'dropped').to.equal(0);
      expect(api.calls.length, 'nothing asked').to.equal(calls);
      expect(errors).to.deep.equal([]);
    });
  }

  it('drops a malformed entry without an error, and shows the form', async () => {
    holdTimers();
    const api = backEnd();
    const first = await paidUntilInstructions(fillUssd);
    const name = sessionStorage.key(0)!;
    const kept = sessionStorage.getItem(name)!;
    const withoutInstructions = JSON.stringify(
      JSON.parse(kept, (key, value) => (key === 'instructions' || key === 'payments' ? undefined : value)),
    );
    const keyless = JSON.stringify(JSON.parse(kept, (key, value) => (key === 'key' ? 42 : value)));
    const oldShape = JSON.stringify({ v: 1, key: 'k', keptAt: Date.now(), state: { kind: 'ussd' } });
    let el = first;
    for (const garbage of ['{not json', 'null', '42', '[]', withoutInstructions, keyless, oldShape]) {
      sessionStorage.setItem(name, garbage);
      const calls = api.calls.length;
      const again = await reload(el);
      el = again.el;
      expect(part(el, 'form'), garbage).to.exist;
      expect(again.resumed, garbage).to.deep.equal([]);
      expect(sessionStorage.getItem(name), garbage).to.equal(null);
      expect(api.calls.length, garbage).to.equal(calls);
    }
    await new Promise((done) => setTimeout(done, 50));
    expect(errors).to.deep.equal([]);
  });

  it('drops an attempt kept in the future: the phone’s clock set back since', async () => {
    holdTimers();
    backEnd();
    const first = await paidUntilInstructions(fillUssd);
    phoneClock(-5 * MINUTE);
    const { el, resumed } = await reload(first);
    expect(part(el, 'form')).to.exist;
    expect(resumed).to.deep.equal([]);
    expect(sessionStorage.length).to.equal(0);
  });

  it('drops an attempt kept two hours ago, past the life its session answer gave it, whatever else the record says', async () => {
    holdTimers();
    backEnd();
    const first = await paidUntilInstructions(fillTransfer);
    rewriteKept((key, value) =>
      key === 'runsOutAt' ? realDateNow() + 365 * 24 * HOUR : moveTimes(-2 * HOUR)(key, value),
    );
    const { el, resumed } = await reload(first);
    expect(part(el, 'form')).to.exist;
    expect(resumed).to.deep.equal([]);
    expect(sessionStorage.length).to.equal(0);
  });
});

describe('<pay-widget> identical widgets on one page each resume their own attempt (issue 36)', () => {
  afterEach(() => {
    restoreAll();
    sessionStorage.clear();
  });

  const pages: [string, Record<string, string>[], number[]][] = [
    ['told apart by their place on the page', [PAGE, PAGE], [0, 1]],
    [
      'told apart by their id, whatever their order',
      [
        { ...PAGE, id: 'checkout-a' },
        { ...PAGE, id: 'checkout-b' },
      ],
      [1, 0],
    ],
  ];
  for (const [how, attributes, order] of pages) {
    it(how, async () => {
      holdTimers();
      const api = backEnd();
      const ussd = await widget(attributes[0]);
      const transfer = await widget(attributes[1]);
      await fillUssd(ussd);
      await submitUntil(ussd, 'pay-initiated');
      await fillTransfer(transfer);
      await submitUntil(transfer, 'pay-initiated');

      const reloaded = await reloadAll(
        [ussd, transfer],
        order.map((index) => attributes[index]!),
      );
      const [again, againTransfer] = order[0] === 0 ? reloaded : [reloaded[1]!, reloaded[0]!];
      expect(part(again!.el, 'dial-code')?.textContent, 'the USSD widget').to.equal(USSD_PAYMENTS.ussdDailCode);
      expect(part(againTransfer!.el, 'account-number')?.textContent, 'the transfer widget').to.equal(
        TRANSFER_PAYMENTS.accountNumber,
      );
      expect(again!.resumed.map((event) => event.detail.paymentReference)).to.deep.equal([
        USSD_PAYMENTS.paymentReference,
      ]);
      expect(againTransfer!.resumed.map((event) => event.detail.paymentReference)).to.deep.equal([
        TRANSFER_PAYMENTS.paymentReference,
      ]);
      expect(api.sessions(), 'no second session request').to.equal(2);
    });
  }
});
