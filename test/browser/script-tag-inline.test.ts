/**
 * The script tag pasted inline (its text in a `<script>` with no `src`, as some site builders do),
 * with `data-files-url` naming the folder of its other files (here dist/, relative to the page): it
 * shows the form, finds its second file there, and completes a USSD payment, with no error anywhere.
 */
import { expect, fixture, waitUntil } from '@open-wc/testing';
import { en } from '../../src/element/messages/en.js';
import { pasteScriptInline, uncaughtErrors } from './inline-script.js';

type Widget = HTMLElement & { updateComplete: Promise<unknown>; submit(): void };

const payments = {
  paymentReference: 'ORD-1',
  linkingReference: 'LNK-1',
  providerreference: 'PRV-1',
  ussdDailCode: '*737*000*4412#',
};

describe('the script tag pasted inline, with data-files-url', () => {
  const realFetch = window.fetch;
  const realError = console.error;
  const logged: string[] = [];
  let uncaught: string[];

  before(async () => {
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    uncaught = uncaughtErrors();
    console.error = (...args: unknown[]) => void logged.push(args.join(' '));
    await pasteScriptInline({ 'data-files-url': '/dist' });
  });
  after(() => {
    window.fetch = realFetch;
    console.error = realError;
    sessionStorage.clear();
  });

  it('shows the form, loads its files from that folder and completes a USSD payment', async () => {
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      if (new URL(String(input), location.href).pathname !== '/pay/session') return realFetch(input, init);
      const order = { paymentReference: 'ORD-1', amount: '5000', currency: 'NGN' };
      const body = { status: 'SUCCESS', data: { code: '00', message: 'Successful', payments }, order };
      return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    };
    const el = await fixture<Widget>(
      `<pay-widget session-url="/pay/session" amount="5000" payment-types="USSD" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`,
    );
    const root = el.shadowRoot!;
    expect(root.querySelector('label[for="fullName"]')!.textContent, 'the form shows').to.equal(en.fullName);
    const bank = root.querySelector('select')!;
    bank.value = '058';
    bank.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
    el.submit();
    await waitUntil(() => root.querySelector('[part~="dial-code"]'), 'the dial code shows', { timeout: 5_000 });
    expect(root.querySelector('[part~="dial-code"]')!.textContent).to.include('*737*000*4412#');
    const loaded = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    expect(loaded).to.include('/dist/pay-widget.after-submit.js');
    expect(logged, 'nothing said in the console').to.deep.equal([]);
    expect(uncaught, 'no uncaught error').to.deep.equal([]);
  });
});
