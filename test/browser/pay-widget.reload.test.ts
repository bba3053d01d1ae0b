/**
 * Issue 26, a real reload: a merchant's page (fixtures/reload/page.html, the built script tag, dist/)
 * in a frame, paid up to each result screen, then reloaded as the browser does when the customer
 * comes back to a discarded tab. Every request the page makes is answered and counted here: the
 * reloaded page shows the same instructions and fires pay-resumed without a second session request.
 */
import { expect, waitUntil } from '@open-wc/testing';
import {
  fillTransfer,
  fillUssd,
  json,
  part,
  SESSION_URL,
  STATUS_URL,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  USSD_PAYMENTS,
  ussdEnvelope,
  type PayWidget,
} from './helpers.js';

const MINUTE = 60_000;
type Frame = {
  answerFromFrame?: (url: string, init?: RequestInit) => Promise<Response>;
  resumedInFrame?: (detail: unknown) => void;
};
const top = window as unknown as Frame;

let requests: { path: string; method: string }[];
let resumed: unknown[];
let frame: HTMLIFrameElement;

function loaded(): Promise<void> {
  return new Promise((done) => frame.addEventListener('load', () => done(), { once: true }));
}

/** The widget of the page in the frame, once its form or a result shows. */
async function pageWidget(): Promise<PayWidget> {
  const [el] = await pageWidgets();
  return el!;
}

/** The widgets of the page in the frame, once each shows its form or a result. */
async function pageWidgets(): Promise<PayWidget[]> {
  let els: PayWidget[] = [];
  const rendered = () =>
    (els = [...(frame.contentDocument?.querySelectorAll<PayWidget>('pay-widget') ?? [])]).length > 0 &&
    els.every((el) => el.shadowRoot?.querySelector('form, [part~="result"]'));
  await waitUntil(rendered, 'the widgets render');
  await Promise.all(els.map((el) => el.updateComplete));
  return els;
}

describe('<pay-widget> on a page that reloads (issue 26, the script tag)', () => {
  beforeEach(async () => {
    requests = [];
    resumed = [];
    top.answerFromFrame = async (url, init = {}) => {
      const { pathname } = new URL(url, location.href);
      requests.push({ path: pathname, method: init.method ?? 'GET' });
      if (pathname === STATUS_URL) return json({ status: 'PENDING', now: new Date().toISOString() });
      const body = JSON.parse(String(init.body));
      if (body.paymentType === 'USSD') return json(ussdEnvelope());
      const order = {
        paymentReference: TRANSFER_PAYMENTS.paymentReference,
        amount: '7250',
        currency: 'NGN',
        expiresAt: new Date(Date.now() + 30 * MINUTE).toISOString(),
        expiresInMs: 30 * MINUTE,
      };
      return json(transferEnvelope(TRANSFER_PAYMENTS, order));
    };
    top.resumedInFrame = (detail) => resumed.push(detail);
    frame = document.createElement('iframe');
    frame.style.cssText = 'width: 400px; height: 900px';
    frame.src = '/test/browser/fixtures/reload/page.html';
    const ready = loaded();
    document.body.append(frame);
    await ready;
  });
  afterEach(() => {
    frame.contentWindow?.sessionStorage.clear();
    frame.remove();
    delete top.answerFromFrame;
    delete top.resumedInFrame;
  });

  const sessions = () => requests.filter((request) => request.path === SESSION_URL).length;

  for (const [type, fill, shown, expected, reference] of [
    ['USSD', fillUssd, 'dial-code', USSD_PAYMENTS.ussdDailCode, USSD_PAYMENTS.paymentReference],
    ['TRANSFER', fillTransfer, 'account-number', TRANSFER_PAYMENTS.accountNumber, TRANSFER_PAYMENTS.paymentReference],
  ] as const) {
    it(`shows the same ${type} instructions after the page reloads, with pay-resumed and no second session request`, async function () {
      this.timeout(20_000);
      const before = await pageWidget();
      await fill(before);
      (part(before, 'submit') as HTMLButtonElement).click();
      await waitUntil(() => part(before, shown), 'the result screen');
      expect(sessions()).to.equal(1);

      const again = loaded();
      frame.contentWindow!.location.reload();
      await again;
      const after = await pageWidget();
      await waitUntil(() => part(after, shown), 'the same screen after the reload');
      expect(after).not.to.equal(before);
      expect(part(after, shown)!.textContent).to.equal(expected);
      await waitUntil(() => resumed.length === 1, 'pay-resumed');
      expect(resumed[0]).to.include({ paymentType: type, paymentReference: reference });
      expect(sessions(), 'no second session request').to.equal(1);
      await waitUntil(() => requests.at(-1)?.path === STATUS_URL, 'the status asked after the reload');
      if (type === 'TRANSFER')
        expect(after.shadowRoot!.querySelector('[role="timer"]')!.textContent).to.match(/^Valid for (30:00|29:5\d)$/);
    });
  }

  it('two identical widgets on the page each show their own payment again after it reloads (issue 36)', async function () {
    this.timeout(20_000);
    const page = loaded();
    frame.src = '/test/browser/fixtures/reload/two-widgets.html';
    await page;
    const [ussd, transfer] = await pageWidgets();
    await fillUssd(ussd!);
    (part(ussd!, 'submit') as HTMLButtonElement).click();
    await waitUntil(() => part(ussd!, 'dial-code'), 'the first widget’s dial code');
    await fillTransfer(transfer!);
    (part(transfer!, 'submit') as HTMLButtonElement).click();
    await waitUntil(() => part(transfer!, 'account-number'), 'the second widget’s account');

    const again = loaded();
    frame.contentWindow!.location.reload();
    await again;
    const [first, second] = await pageWidgets();
    await waitUntil(() => resumed.length === 2, 'pay-resumed, twice');
    expect(part(first!, 'dial-code')?.textContent, 'the first widget').to.equal(USSD_PAYMENTS.ussdDailCode);
    await waitUntil(() => part(second!, 'account-number'), 'the second widget’s account again');
    expect(part(second!, 'account-number')!.textContent).to.equal(TRANSFER_PAYMENTS.accountNumber);
    expect(sessions(), 'no second session request').to.equal(2);
  });
});
