/**
 * The script tag's one loader (src/element/loading/load.ts), for each kind of file beside the script:
 * what runs after a submit, the transfer screen, the QR code and a language. The test server answers
 * each file as the test says (web-test-runner.config.mjs, `files-beside-script`): missing (404), then
 * offline (no answer at all), then served. Missing is the shop's set-up: code `setup`, one console
 * line naming the file, no Try again. Offline is the customer's connection: the next load asks again,
 * from a new address, and succeeds once the file is served. The tests run in order on one page: a
 * file once loaded stays loaded.
 */
import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { en } from '../../src/element/messages/en.js';
import { messages as yo } from '../../src/element/messages/yo.js';
import { loadClassicScript } from './classic-script.js';

type Widget = HTMLElement & { updateComplete: Promise<unknown>; submit(): void };
type Answer = 'served' | 'missing' | 'offline';

const FOLDER = new URL('/test/browser/fixtures/script-tag-switchable/', location.href).href;

const answer = (file: string, answer: Answer) => executeServerCommand('files-beside-script', { file, answer });
/** The requests the server saw for `file`, with their query (`?retry=2`). */
const requested = async (file: string) =>
  (await executeServerCommand<{ requested: string[] }, object>('files-beside-script', {}))!.requested.filter(
    (request) => request.startsWith(file),
  );

const USSD = {
  paymentReference: 'ORD-1',
  linkingReference: 'LNK-1',
  providerreference: 'PRV-1',
  ussdDailCode: '*737*000*4412#',
};
const TRANSFER = {
  paymentReference: 'ORD-2',
  walletName: 'Shop / Ada Obi',
  wallet: 'W-1',
  bankName: 'Wema Bank',
  accountNumber: '7000012345',
};

/** Session requests answered with the instructions of their payment type; status requests, pending. */
function stubServer(realFetch: typeof fetch): void {
  window.fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), location.href);
    if (url.href.startsWith(FOLDER)) return realFetch(input, init); // the loader's own check of a file
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    if (url.pathname === '/pay/status') return json({ status: 'PENDING' });
    const { paymentType } = JSON.parse(String(init.body)) as { paymentType: string };
    const payments = paymentType === 'USSD' ? USSD : TRANSFER;
    const order = { paymentReference: payments.paymentReference, amount: '5000', currency: 'NGN' };
    return json({ status: 'SUCCESS', data: { code: '00', message: 'Successful', payments }, order });
  };
}

async function filledWidget(paymentType: 'USSD' | 'TRANSFER'): Promise<Widget> {
  const el = await fixture<Widget>(
    `<pay-widget session-url="/pay/session" status-url="/pay/status" amount="5000" payment-types="${paymentType}" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`,
  );
  const bank = el.shadowRoot!.querySelector('select');
  if (bank) {
    bank.value = '058';
    bank.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  }
  await el.updateComplete;
  return el;
}

const button = (el: Widget, text: string) =>
  [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].find((found) => found.textContent!.trim() === text);

/** Pay (or Edit details, then Pay), and the `pay-error` that follows. */
async function payAndFail(el: Widget): Promise<{ code: string; retryable: boolean }> {
  const failed = oneEvent(el, 'pay-error');
  const edit = button(el, en.edit);
  if (edit) {
    edit.click();
    await el.updateComplete;
  }
  el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
  return (await failed).detail;
}

/** Try again until `shown` (a load still failing when the file came back is shared by the next click). */
async function retryUntil(el: Widget, shown: string): Promise<void> {
  await waitUntil(
    async () => {
      if (el.shadowRoot!.querySelector(shown)) return true;
      button(el, en.retry)?.click();
      await el.updateComplete;
      return false;
    },
    `${shown} shows after Try again`,
    { interval: 300, timeout: 10_000 },
  );
}

describe('the script tag’s loader, for each kind of file beside it', () => {
  const realFetch = window.fetch;
  const realError = console.error;
  const logged: string[] = [];

  before(async () => {
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    for (const file of ['after-submit', 'transfer', 'qr', 'yo']) await answer(`pay-widget.${file}.js`, 'missing');
    console.error = (...args: unknown[]) => void logged.push(args.join(' '));
    stubServer(realFetch);
    await loadClassicScript(`${FOLDER}pay-widget.iife.js`);
  });
  // A payment kept for a reload by the test before would be resumed.
  beforeEach(() => sessionStorage.clear());
  after(() => {
    window.fetch = realFetch;
    console.error = realError;
    sessionStorage.clear();
  });

  const told = (file: string) => `pay-widget: ${FOLDER}${file} answered 404: serve all of dist/`;

  it('what runs after a submit: missing is setup, offline is network, and Try again loads it once served', async () => {
    const el = await filledWidget('USSD');
    expect(await payAndFail(el)).to.include({ code: 'setup', retryable: false });
    expect(logged.filter((line) => line === told('pay-widget.after-submit.js'))).to.have.length(1);

    await answer('pay-widget.after-submit.js', 'offline');
    expect(await payAndFail(el)).to.include({ code: 'network', retryable: true });
    await answer('pay-widget.after-submit.js', 'served');
    await retryUntil(el, '[part~="dial-code"]');
    expect(el.shadowRoot!.querySelector('[part~="dial-code"]')!.textContent).to.include('*737*000*4412#');
    expect(await requested('pay-widget.after-submit.js'), 'each load after a failure asks a new address').to.include(
      'pay-widget.after-submit.js?retry=2',
    );
  });

  it('the QR code: missing is told once and not asked again; offline is asked again at the next render', async () => {
    // The USSD screen above asked for the QR code's file, which is missing.
    await waitUntil(() => logged.includes(told('pay-widget.qr.js')), 'the console is told');
    const asked = (await requested('pay-widget.qr.js')).length;
    await new Promise((later) => setTimeout(later, 2_500)); // two ticks of the screen's clock
    expect(await requested('pay-widget.qr.js'), 'a file the shop does not serve is not asked for again').to.have.length(
      asked,
    );

    await answer('pay-widget.qr.js', 'offline');
    const el = await filledWidget('USSD');
    el.submit();
    await waitUntil(() => el.shadowRoot!.querySelector('[part~="dial-code"]'), 'the dial code shows');
    await waitUntil(async () => (await requested('pay-widget.qr.js')).length > asked, 'the QR code is asked for');
    await answer('pay-widget.qr.js', 'served');
    const path = () => el.shadowRoot!.querySelector('svg.qr path')?.getAttribute('d');
    // At the screen's next render: it renders once a second.
    await waitUntil(() => path() && path() !== 'M0 0', 'the QR code is drawn once its file is served', {
      timeout: 5_000,
    });
    expect(logged.filter((line) => line.includes('pay-widget.qr.js'))).to.have.length(1);
  });

  it('the transfer screen: missing is setup, offline is network, and Try again loads it once served', async () => {
    const el = await filledWidget('TRANSFER');
    expect(await payAndFail(el)).to.include({ code: 'setup', retryable: false });
    expect(logged.filter((line) => line === told('pay-widget.transfer.js'))).to.have.length(1);

    await answer('pay-widget.transfer.js', 'offline');
    expect(await payAndFail(el)).to.include({ code: 'network', retryable: true });
    await answer('pay-widget.transfer.js', 'served');
    await retryUntil(el, '[part~="account-number"]');
    expect(el.shadowRoot!.querySelector('[part~="account-number"]')!.textContent).to.equal('7000012345');
  });

  it('a language: missing or offline leaves English (the console told once), and it loads once served', async () => {
    const el = await fixture<Widget>(`<pay-widget session-url="/pay/session" locale="yo"></pay-widget>`);
    const legend = () => el.shadowRoot!.querySelector('legend')!.textContent;
    await waitUntil(() => logged.includes(told('pay-widget.yo.js')), 'the console is told');
    expect(legend()).to.equal(en.chooseType);

    const askAgain = async () => {
      el.setAttribute('locale', 'en');
      await el.updateComplete;
      el.setAttribute('locale', 'yo');
      await el.updateComplete;
    };
    await answer('pay-widget.yo.js', 'offline');
    const before = (await requested('pay-widget.yo.js')).length;
    await askAgain();
    await waitUntil(async () => (await requested('pay-widget.yo.js')).length > before, 'asked again');
    await new Promise((later) => setTimeout(later, 200));
    expect(legend(), 'no answer: still English').to.equal(en.chooseType);

    await answer('pay-widget.yo.js', 'served');
    await askAgain();
    await waitUntil(() => legend() === yo.chooseType, 'Yoruba once its file is served');
    expect(logged.filter((line) => line.includes('pay-widget.yo.js'))).to.have.length(1);
  });
});
