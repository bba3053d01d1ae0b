/**
 * The script tag's second file (dist/pay-widget.after-submit.js: what runs after a submit) arriving
 * late, through a real fetch that the test server holds back (web-test-runner.config.mjs,
 * `held-second-file`): the first file draws the form without it, a Pay that comes too soon waits
 * for it and then sends one request, and one that waits longer than `timeout` says so with Try again.
 * The tests run in order on one page: the file is held until the second test lets it go.
 */
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { en } from '../../src/element/messages/en.js';
import { loadClassicScript } from './classic-script.js';

type Widget = HTMLElement & { updateComplete: Promise<unknown>; submit(): void };
type HeldFile = { requested: number; waiting: number };

const SCRIPT = '/test/browser/fixtures/script-tag-held/pay-widget.iife.js';
const heldFile = (payload: { release?: boolean } = {}) =>
  executeServerCommand<HeldFile, typeof payload>('held-second-file', payload);

const ENVELOPE = {
  status: 'SUCCESS',
  data: {
    code: null,
    message: null,
    payments: {
      paymentReference: 'ORD-1001',
      linkingReference: 'LNK-1',
      providerreference: 'PRV-1',
      ussdDailCode: '*737*000*4412#',
    },
  },
  order: { paymentReference: 'ORD-1001', amount: '5000', currency: 'NGN' },
};

/** Session requests, answered with the USSD envelope; anything else is refused. */
function stubSessions(): string[] {
  const bodies: string[] = [];
  window.fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (new URL(String(input), location.href).pathname !== '/pay/session')
      throw new TypeError(`unexpected request to ${String(input)}`);
    bodies.push(String(init.body));
    return new Response(JSON.stringify(ENVELOPE), { headers: { 'Content-Type': 'application/json' } });
  };
  return bodies;
}

/** A USSD widget with every field filled and a bank chosen, ready for Pay. */
async function filledWidget(extra = ''): Promise<Widget> {
  const el = await fixture<Widget>(
    `<pay-widget session-url="/pay/session" amount="5000" payment-types="USSD" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678" ${extra}></pay-widget>`,
  );
  const bank = el.shadowRoot!.querySelector('select')!;
  bank.value = '058';
  bank.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  await el.updateComplete;
  return el;
}

const pay = (el: Widget) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();

describe('the script tag with its second file held back', () => {
  const realFetch = window.fetch;
  before(async () => {
    // The runner reuses its tabs: a payment another test file kept for a reload (issue 26) would be resumed here.
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    await loadClassicScript(SCRIPT);
  });
  afterEach(() => {
    window.fetch = realFetch;
  });

  it('draws the form without it, and says after `timeout` that it could not reach the service, with Try again', async () => {
    const sessions = stubSessions();
    const el = await filledWidget('timeout="400"');
    const root = el.shadowRoot!;
    expect(root.querySelector('form'), 'the form is drawn').to.exist;
    await waitUntil(async () => (await heldFile()).waiting > 0, 'the page asks for the second file');
    const failed = oneEvent(el, 'pay-error');
    pay(el);
    const { detail } = await failed;
    expect(detail).to.include({ code: 'network', retryable: true });
    await el.updateComplete;
    expect(root.querySelector('h2')!.textContent).to.equal(en.errorTitle);
    expect(root.textContent).to.include(en['error-network']);
    expect(root.querySelector('.actions button.primary')!.textContent!.trim()).to.equal(en.retry);
    expect(sessions, 'nothing was sent').to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('sends one request when Pay was pressed before the file arrived, and shows the dial code once it has', async () => {
    const sessions = stubSessions();
    const el = await filledWidget();
    const before = await heldFile();
    expect(before.waiting, 'the file has not arrived yet').to.be.greaterThan(0);
    const submitted = oneEvent(el, 'pay-submit');
    pay(el);
    await submitted;
    el.submit(); // pressed again while waiting: the same payment
    // The previous test gave up on the page's first load, so this submit asks for the file afresh.
    await waitUntil(async () => (await heldFile()).requested > before.requested, 'the submit asks for the file');
    expect(sessions, 'nothing is sent before the file arrives').to.deep.equal([]);

    await heldFile({ release: true });
    const root = el.shadowRoot!;
    await waitUntil(() => root.querySelector('[part~="dial-code"]'), 'the dial code shows', { timeout: 10_000 });
    expect(root.querySelector('[part~="dial-code"]')!.textContent).to.equal('*737*000*4412#');
    expect(sessions).to.have.length(1);
    expect(JSON.parse(sessions[0]!)).to.include({ paymentType: 'USSD', bankCode: '058', amount: '5000' });
    await expect(el).to.be.accessible();
  });
});
