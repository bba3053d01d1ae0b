/**
 * The script tag copied without the files beside it, as a merchant may self-host it: its second file
 * (dist/pay-widget.after-submit.js, what runs after a submit) is missing (404). The form is whole;
 * Pay says the service could not be reached, sends nothing, and Try again asks for the file afresh.
 * test/browser/fixtures/script-tag-alone/ links the built script alone.
 */
import { expect, fixture, oneEvent, waitUntil } from '@open-wc/testing';
import { en } from '../../src/element/messages/en.js';
import { loadClassicScript } from './classic-script.js';

type Widget = HTMLElement & { updateComplete: Promise<unknown> };

const SCRIPT = '/test/browser/fixtures/script-tag-alone/pay-widget.iife.js';

describe('the script tag without its second file', () => {
  const realFetch = window.fetch;
  before(async () => {
    // The runner reuses its tabs: a payment another test file kept for a reload (issue 26) would be resumed here.
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    await loadClassicScript(SCRIPT);
  });
  after(() => {
    window.fetch = realFetch;
  });

  it('draws the form, and on Pay shows the connection error with Try again, which asks for the file again', async () => {
    const sent: string[] = [];
    window.fetch = async (input: RequestInfo | URL) => {
      sent.push(String(input));
      throw new TypeError('no request expected');
    };
    const el = await fixture<Widget>(
      `<pay-widget session-url="/pay/session" amount="5000" payment-types="TRANSFER" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`,
    );
    const root = el.shadowRoot!;
    expect(root.querySelector('[part~="submit"]')!.textContent).to.match(/^\s*Pay .*5,000\.00\s*$/);
    await expect(el).to.be.accessible();

    let failed = oneEvent(el, 'pay-error');
    root.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    expect((await failed).detail).to.include({ code: 'network', retryable: true, message: en['error-network'] });
    await el.updateComplete;
    expect(root.querySelector('h2')!.textContent).to.equal(en.errorTitle);
    const retry = root.querySelector<HTMLButtonElement>('.actions button.primary')!;
    expect(retry.textContent!.trim()).to.equal(en.retry);
    await expect(el).to.be.accessible();

    const asked = () =>
      performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.endsWith('/pay-widget.after-submit.js')).length;
    const before = asked();
    failed = oneEvent(el, 'pay-error');
    retry.click();
    await failed;
    await waitUntil(() => asked() > before, 'Try again fetches the file again');
    expect(sent, 'no session request without the code that sends it').to.deep.equal([]);
  });
});
