/**
 * The script tag served with its second file but without the transfer screen's file
 * (dist/pay-widget.transfer.js), which only a transfer loads (issue 26's budget): a USSD payment
 * goes through and never asks for it; a transfer sends nothing, says the form is not set up
 * (`setup`) and keeps what was typed, and the console names the missing file.
 * test/browser/fixtures/script-tag-without-transfer/ links the built first and second files.
 */
import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import { en } from '../../src/element/messages/en.js';
import { loadClassicScript } from './classic-script.js';

type Widget = HTMLElement & { updateComplete: Promise<unknown> };

const FOLDER = new URL('/test/browser/fixtures/script-tag-without-transfer/', location.href).href;
const TRANSFER_FILE = `${FOLDER}pay-widget.transfer.js`;

const ussdAnswer = {
  status: 'SUCCESS',
  data: {
    code: '00',
    message: 'Successful',
    payments: {
      paymentReference: 'ORD-7',
      linkingReference: 'L-7',
      providerreference: 'P-7',
      ussdDailCode: '*737*000*7#',
    },
  },
  order: { paymentReference: 'ORD-7', amount: '5000.00', currency: 'NGN' },
};

const requested = (file: string) =>
  performance.getEntriesByType('resource').filter((entry) => entry.name.startsWith(file)).length;

describe('the script tag without the transfer screen’s file', () => {
  const realFetch = window.fetch;
  const realError = console.error;
  let logged: string[];
  let sessions: string[];

  before(async () => {
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    await loadClassicScript(`${FOLDER}pay-widget.iife.js`);
  });
  beforeEach(() => {
    logged = [];
    sessions = [];
    console.error = (...args: unknown[]) => void logged.push(args.join(' '));
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url.startsWith(FOLDER)) return realFetch(input, init);
      sessions.push(url);
      return new Response(JSON.stringify(ussdAnswer), { headers: { 'Content-Type': 'application/json' } });
    };
  });
  afterEach(() => {
    window.fetch = realFetch;
    console.error = realError;
    sessionStorage.clear();
  });

  it('pays by USSD and never asks for it', async () => {
    const el = await fixture<Widget>(
      `<pay-widget session-url="/pay/session" amount="5000" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`,
    );
    const root = el.shadowRoot!;
    const bank = root.querySelector('select')!;
    bank.value = '058';
    bank.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    const initiated = oneEvent(el, 'pay-initiated');
    root.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    expect((await initiated).detail).to.include({ paymentReference: 'ORD-7', ussdDialCode: '*737*000*7#' });
    await el.updateComplete;
    expect(root.querySelector('[part~="dial-code"]')!.textContent).to.equal('*737*000*7#');
    expect(sessions).to.deep.equal(['/pay/session']);
    expect(requested(TRANSFER_FILE), 'the transfer screen’s file').to.equal(0);
    expect(logged).to.deep.equal([]);
  });

  it('refuses a transfer as not set up, sending nothing and keeping what was typed', async () => {
    const el = await fixture<Widget>(`<pay-widget session-url="/pay/session" amount="5000"></pay-widget>`);
    const root = el.shadowRoot!;
    const transfer = root.querySelector<HTMLInputElement>('input[value="TRANSFER"]')!;
    transfer.click();
    for (const [name, value] of [
      ['fullName', 'Ada Obi'],
      ['email', 'ada@example.com'],
      ['mobileNumber', '08012345678'],
    ]) {
      const input = root.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
      input.value = value!;
      input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    }
    await el.updateComplete;
    const failed = oneEvent(el, 'pay-error');
    root.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    expect((await failed).detail).to.include({
      paymentType: 'TRANSFER',
      code: 'setup',
      retryable: false,
      message: en['error-setup'],
    });
    await waitUntil(() => logged.length === 1, 'the console is told');
    expect(logged).to.deep.equal([`pay-widget: ${TRANSFER_FILE} answered 404: serve all of dist/`]);
    expect(sessions, 'no session request: a payment whose screen cannot show is never started').to.deep.equal([]);
    await el.updateComplete;
    expect(root.querySelector('h2')!.textContent).to.equal(en.errorTitle);

    [...root.querySelectorAll<HTMLButtonElement>('.actions button')]
      .find((button) => button.textContent!.trim() === en.edit)!
      .click();
    await el.updateComplete;
    const value = (name: string) => root.querySelector<HTMLInputElement>(`[name="${name}"]`)!.value;
    expect(['fullName', 'email', 'mobileNumber'].map(value)).to.deep.equal([
      'Ada Obi',
      'ada@example.com',
      '08012345678',
    ]);
    expect(root.querySelector<HTMLInputElement>('input[value="TRANSFER"]')!.checked).to.equal(true);
  });
});
