/**
 * The <script>-tag build, dist/pay-widget.iife.js, as a merchant's page loads it: one classic
 * script, Lit and zod/mini inside. It is built by `npm run build`, which `npm test` runs first.
 * The element's behaviour is tested against src/; this checks what the bundler made of it.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { en } from '../../src/element/messages/en.js';
import { messages as yo } from '../../src/element/messages/yo.js';
import { loadClassicScript } from './classic-script.js';

type LitLike = HTMLElement & { updateComplete: Promise<unknown> };

describe('the script-tag build (dist/pay-widget.iife.js)', () => {
  before(async () => {
    // The runner reuses its tabs: a payment another test file kept for a reload (issue 26) would be resumed here.
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    await loadClassicScript('/dist/pay-widget.iife.js');
  });

  it('registers <pay-widget> and exposes its class as window.PayWidget.PayWidget', () => {
    const defined = customElements.get('pay-widget');
    expect(defined).to.be.a('function');
    const global = (window as unknown as { PayWidget?: { PayWidget?: unknown } }).PayWidget;
    expect(global?.PayWidget).to.equal(defined);
  });

  it('bundles the production build of Lit', () => {
    // Lit's development build records its warnings in this global; the production build has none.
    expect((globalThis as { litIssuedWarnings?: unknown }).litIssuedWarnings).to.equal(undefined);
  });

  it('renders the form with the spec-named controls, accessibly', async () => {
    const el = await fixture<LitLike>(html`<pay-widget session-url="/pay/session" amount="5000"></pay-widget>`);
    await el.updateComplete;
    const root = el.shadowRoot!;
    const types = [...root.querySelectorAll<HTMLInputElement>('input[name="paymentType"]')].map((r) => r.value);
    expect(types).to.have.members(['USSD', 'TRANSFER']);
    for (const name of ['fullName', 'email', 'mobileNumber']) {
      expect(root.querySelector(`[name="${name}"]`), name).to.exist;
    }
    await expect(el).to.be.accessible();
  });

  it('loads a locale from its file beside the script (dist/pay-widget.yo.js), English until then', async () => {
    const el = await fixture<LitLike>(html`<pay-widget session-url="/pay/session" locale="yo-NG"></pay-widget>`);
    const root = el.shadowRoot!;
    const lang = () => root.querySelector('[lang]')?.getAttribute('lang');
    expect(lang()).to.equal('en');
    expect(root.querySelector('legend')!.textContent).to.equal(en.chooseType);
    await waitUntil(() => lang() === 'yo-NG', 'dist/pay-widget.yo.js arrives');
    expect(root.querySelector('legend')!.textContent).to.equal(yo.chooseType);
    const loaded = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    expect(loaded).to.include('/dist/pay-widget.yo.js');
    await expect(el).to.be.accessible();
  });

  it("on a computer, draws the dial code's QR code from its file beside the script (dist/pay-widget.qr.js)", async () => {
    const realFetch = window.fetch;
    const payments = {
      paymentReference: 'ORD-1001',
      linkingReference: 'LNK-1',
      providerreference: 'PRV-1',
      ussdDailCode: '*737*000*4412#',
    };
    window.fetch = async () =>
      new Response(JSON.stringify({ status: 'SUCCESS', data: { code: null, message: null, payments } }), {
        headers: { 'Content-Type': 'application/json' },
      });
    try {
      const el = await fixture<LitLike & { submit(): void }>(
        html`<pay-widget session-url="/pay/session" payment-types="USSD" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`,
      );
      const root = el.shadowRoot!;
      const bank = root.querySelector('select')!;
      bank.value = '058';
      bank.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
      el.submit();
      const path = () => root.querySelector('svg.qr path')?.getAttribute('d');
      await waitUntil(() => path() && path() !== 'M0 0', 'the QR code is drawn');
      const loaded = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
      expect(loaded).to.include('/dist/pay-widget.qr.js');
      expect(loaded, 'a USSD payment never loads the transfer screen').not.to.include('/dist/pay-widget.transfer.js');
      expect(root.querySelector('a[href^="tel:"]'), 'no dial link on a computer').to.equal(null);
    } finally {
      window.fetch = realFetch;
      sessionStorage.clear();
    }
  });

  it('shows a kept USSD attempt again after a reload from its file beside the script (dist/pay-widget.resume.js), which the payment itself never loads', async () => {
    const realFetch = window.fetch;
    const payments = {
      paymentReference: 'ORD-3003',
      linkingReference: 'LNK-3',
      providerreference: 'PRV-3',
      ussdDailCode: '*737*000*3003#',
    };
    window.fetch = async () =>
      new Response(JSON.stringify({ status: 'SUCCESS', data: { code: null, message: null, payments } }), {
        headers: { 'Content-Type': 'application/json' },
      });
    const loaded = () => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    const page = html`<pay-widget session-url="/pay/session-resume" payment-types="USSD" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`;
    const dialCode = (el: LitLike) => el.shadowRoot!.querySelector('[part~="dial-code"]')?.textContent;
    try {
      const el = await fixture<LitLike & { submit(): void }>(page);
      const bank = el.shadowRoot!.querySelector('select')!;
      bank.value = '058';
      bank.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
      el.submit();
      await waitUntil(() => dialCode(el), 'the dial code shows');
      expect(loaded(), 'a payment never loads the resume file').not.to.include('/dist/pay-widget.resume.js');
      el.remove();
      const again = await fixture<LitLike>(page);
      await waitUntil(() => dialCode(again) === payments.ussdDailCode, 'the same dial code shows again');
      expect(loaded()).to.include('/dist/pay-widget.resume.js');
    } finally {
      window.fetch = realFetch;
      sessionStorage.clear();
    }
  });

  it('loads the transfer screen from its file beside the script (dist/pay-widget.transfer.js) once a transfer is chosen, and shows the account with its countdown', async () => {
    const realFetch = window.fetch;
    const payments = {
      paymentReference: 'ORD-2002',
      walletName: 'Shop / Ada Obi',
      wallet: 'W-1',
      bankName: 'Wema Bank',
      accountNumber: '7000012345',
    };
    const order = {
      paymentReference: 'ORD-2002',
      amount: '5000.00',
      currency: 'NGN',
      expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      expiresInMs: 30 * 60_000,
    };
    window.fetch = async () =>
      new Response(
        JSON.stringify({ status: 'SUCCESS', data: { code: '00', message: 'Successful', payments }, order }),
        { headers: { 'Content-Type': 'application/json' } },
      );
    const loaded = () => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    try {
      const el = await fixture<LitLike & { submit(): void }>(
        html`<pay-widget session-url="/pay/session" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`,
      );
      const root = el.shadowRoot!;
      root.querySelector<HTMLInputElement>('input[value="TRANSFER"]')!.click();
      await waitUntil(() => loaded().includes('/dist/pay-widget.transfer.js'), 'choosing a transfer loads its screen');
      el.submit();
      await waitUntil(() => root.querySelector('[part~="account-number"]'), 'the account shows');
      expect(root.querySelector('[part~="account-number"]')!.textContent).to.equal('7000012345');
      expect(root.querySelector('h2')!.textContent).to.equal('Transfer to this account');
      expect(root.querySelector('[role="timer"]')!.textContent).to.match(/^Valid for (30:00|29:5\d)$/);
      await expect(el).to.be.accessible();
    } finally {
      window.fetch = realFetch;
      sessionStorage.clear();
    }
  });
});
