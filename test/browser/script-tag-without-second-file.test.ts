/**
 * The script tag copied without the files beside it, as a merchant may self-host it: its second file
 * (dist/pay-widget.after-submit.js, what runs after a submit) is missing (404). The form is whole;
 * Pay sends nothing, and says what is wrong to each reader (issue 27): to the customer, that the form
 * is not set up (never "check your connection"), with what they typed kept; to the page, `pay-error`
 * code `setup`; to the merchant, one console error for each missing file, naming the address tried
 * and how to serve it (once, though the prefetch and the submit each tried).
 * A second file that gets no answer at all stays the customer's connection (`network`, Try again).
 * test/browser/fixtures/script-tag-alone/ links the built script alone.
 */
import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import { en } from '../../src/element/messages/en.js';
import { loadClassicScript } from './classic-script.js';

type Widget = HTMLElement & { updateComplete: Promise<unknown> };

const SCRIPT = '/test/browser/fixtures/script-tag-alone/pay-widget.iife.js';
const FOLDER = new URL('/test/browser/fixtures/script-tag-alone/', location.href).href;
const SECOND_FILE = `${FOLDER}pay-widget.after-submit.js`;
/** A transfer's screen, the third file, is missing as well. */
const TRANSFER_FILE = `${FOLDER}pay-widget.transfer.js`;

/** Types `value` into the field `name` as a customer does. */
function type(el: Widget, name: string, value: string) {
  const input = el.shadowRoot!.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

const value = (el: Widget, name: string) => el.shadowRoot!.querySelector<HTMLInputElement>(`[name="${name}"]`)!.value;

describe('the script tag without its second file', () => {
  const realFetch = window.fetch;
  const realError = console.error;
  let logged: string[];
  let sent: string[];

  before(async () => {
    // The runner reuses its tabs: a payment another test file kept for a reload (issue 26) would be resumed here.
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    await loadClassicScript(SCRIPT);
  });
  beforeEach(() => {
    logged = [];
    sent = [];
    console.error = (...args: unknown[]) => void logged.push(args.join(' '));
    // Only the script's own checks of the files beside it may reach the server: no session request.
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url.startsWith(FOLDER)) return realFetch(input, init);
      sent.push(url);
      throw new TypeError('no request expected');
    };
  });
  afterEach(() => {
    window.fetch = realFetch;
    console.error = realError;
  });

  it('says the form is not set up (pay-error code setup), keeps what was typed, and tells the merchant in one console line', async () => {
    const el = await fixture<Widget>(
      `<pay-widget session-url="/pay/session" amount="5000" payment-types="TRANSFER"></pay-widget>`,
    );
    const root = el.shadowRoot!;
    expect(root.querySelector('[part~="submit"]')!.textContent).to.match(/^\s*Pay .*5,000\.00\s*$/);
    // Focusing a field starts loading the second file early (the prefetch); it fails before the submit.
    root.querySelector<HTMLInputElement>('[name="fullName"]')!.focus();
    await waitUntil(() => logged.length === 1, 'the prefetch found the file missing');
    type(el, 'fullName', 'Ada Obi');
    type(el, 'email', 'ada@example.com');
    type(el, 'mobileNumber', '08012345678');
    await el.updateComplete;

    const failed = oneEvent(el, 'pay-error');
    root.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    expect((await failed).detail).to.include({ code: 'setup', retryable: false, message: en['error-setup'] });
    await el.updateComplete;
    expect(root.querySelector('h2')!.textContent).to.equal(en.errorTitle);
    const shown = root.querySelector('[part~="result"]')!.textContent!;
    expect(shown).to.include('This payment form is not set up correctly. Please tell the shop.');
    expect(shown).not.to.match(/connection/i);
    expect(root.querySelector('.actions button.primary'), 'no Try again: trying again cannot help').to.equal(null);
    await expect(el).to.be.accessible();

    expect(logged, 'each file once, though the prefetch and the submit each tried').to.deep.equal([
      `pay-widget: ${SECOND_FILE} answered 404: serve all of dist/`,
      `pay-widget: ${TRANSFER_FILE} answered 404: serve all of dist/`,
    ]);
    expect(sent, 'no session request without the code that sends it').to.deep.equal([]);

    const edit = oneEvent(el, 'pay-reset');
    [...root.querySelectorAll<HTMLButtonElement>('.actions button')]
      .find((button) => button.textContent!.trim() === en.edit)!
      .click();
    await edit;
    await el.updateComplete;
    expect(['fullName', 'email', 'mobileNumber'].map((name) => value(el, name))).to.deep.equal([
      'Ada Obi',
      'ada@example.com',
      '08012345678',
    ]);
  });

  it('with no answer at all for the second file, says the connection failed, and Try again asks for the file again', async () => {
    window.fetch = async (input: RequestInfo | URL) => {
      sent.push(String(input));
      throw new TypeError('Failed to fetch'); // offline: the script's check gets no answer either
    };
    const asked = () =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('/pay-widget.after-submit.js')).length;
    const askedBefore = asked();
    const el = await fixture<Widget>(
      `<pay-widget session-url="/pay/session" amount="5000" payment-types="TRANSFER" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`,
    );
    const root = el.shadowRoot!;
    let failed = oneEvent(el, 'pay-error');
    root.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    expect((await failed).detail).to.include({ code: 'network', retryable: true, message: en['error-network'] });
    await el.updateComplete;
    const retry = root.querySelector<HTMLButtonElement>('.actions button.primary')!;
    expect(retry.textContent!.trim()).to.equal(en.retry);
    expect(logged).to.deep.equal([]);

    // Try again while a load of the second file is still failing (the submit's, or the idle prefetch's) shares that
    // load. Each failed load asks once more (the script's check, in `sent`) after its request is on record: wait until
    // every one has.
    const checks = () => sent.filter((url) => url.startsWith(SECOND_FILE)).length;
    const allFailed = () => checks() > 0 && checks() === asked() - askedBefore;
    do {
      await waitUntil(allFailed, 'every load of the second file has failed');
      await new Promise((forgotten) => setTimeout(forgotten));
    } while (!allFailed());
    const before = asked();
    failed = oneEvent(el, 'pay-error');
    retry.click();
    await failed;
    await waitUntil(() => asked() > before, 'Try again fetches the file again');
    expect(
      sent.filter((url) => !url.startsWith(FOLDER)),
      'no session request',
    ).to.deep.equal([]);
  });
});
