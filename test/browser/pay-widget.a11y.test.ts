import { expect, waitUntil } from '@open-wc/testing';
import { emulateMedia, executeServerCommand, sendKeys, sendMouse } from '@web/test-runner-commands';
import {
  busyShown,
  bankSearch,
  button,
  clickSubmit,
  control,
  deferred,
  errorBody,
  fillTransfer,
  fillUssd,
  focused,
  heading,
  json,
  nextEvent,
  part,
  radio,
  restoreAll,
  root,
  route,
  SESSION_URL,
  STATUS_URL,
  stubClipboard,
  stubFetch,
  submitUntil,
  text,
  transferEnvelope,
  USSD_PAYMENTS,
  TRANSFER_PAYMENTS,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

/** axe finds nothing, and there is exactly one live region. */
async function expectAccessible(el: PayWidget): Promise<void> {
  await expect(el).to.be.accessible();
  const regions = root(el).querySelectorAll('[role="status"], [aria-live]');
  expect(regions, 'one live region').to.have.length(1);
}

const press = (key: string) => sendKeys({ press: key });
const type = (text: string) => sendKeys({ type: text });

describe('<pay-widget>', () => {
  // axe-core is large: load it once, before the first test's own time limit starts.
  before(async function () {
    this.timeout(30_000);
    // @ts-expect-error axe-core's browser build has no module types; it registers window.axe.
    await import('axe-core/axe.min.js');
  });
  afterEach(restoreAll);

  describe('is accessible', () => {
    it('in the form, for both payment types', async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      expect(radio(el, 'USSD').closest('fieldset')!.querySelector('legend')!.textContent).to.equal(
        'How would you like to pay?',
      );
      await expectAccessible(el);
      radio(el, 'TRANSFER').click();
      await el.updateComplete;
      await expectAccessible(el);
    });

    it('in the form showing errors', async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await submitUntil(el, 'pay-error');
      expect(root(el).querySelectorAll('[aria-invalid="true"]')).to.have.length(4);
      await expectAccessible(el);
    });

    it('while submitting (progress)', async () => {
      const answer = deferred<Response>();
      stubFetch(route({ session: () => answer.promise }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillUssd(el);
      clickSubmit(el);
      await busyShown(el);
      await expectAccessible(el);
      const initiated = nextEvent(el, 'pay-initiated');
      answer.resolve(json(ussdEnvelope()));
      await initiated;
    });

    it('in the USSD result, waiting for the payment', async () => {
      stubFetch(route({ session: () => json(ussdEnvelope()), status: () => json({ status: 'PENDING' }) }));
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, amount: '5000' });
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      expect(part(el, 'dial-code')).to.not.equal(null);
      expect(part(el, 'status')).to.not.equal(null);
      await expectAccessible(el);
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal(
        `Dial this code to pay: ${USSD_PAYMENTS.ussdDailCode}, ₦7,250.00`,
      );
    });

    it('in the transfer result', async () => {
      stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      expect(part(el, 'account-number')).to.not.equal(null);
      await expectAccessible(el);
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal(
        `Transfer to this account: ${TRANSFER_PAYMENTS.accountNumber}, ${TRANSFER_PAYMENTS.bankName}, ₦7,250.00`,
      );
    });

    it('in the error screen, with field messages', async () => {
      stubFetch(route({ session: () => json(errorBody('validation', 'Refused', { email: 'Blocked address' }), 422) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      expect(root(el).querySelector('li')).to.not.equal(null);
      await expectAccessible(el);
    });

    it('in the error screen, with a retry', async () => {
      stubFetch(route({ session: () => Promise.reject(new TypeError('Failed to fetch')) }));
      const el = await widget({ 'session-url': SESSION_URL });
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      expect(button(el, 'Try again')).to.not.equal(undefined);
      await expectAccessible(el);
    });

    it('in the complete screen', async function () {
      this.timeout(6_000);
      stubFetch(route({ session: () => json(transferEnvelope()), status: () => json({ status: 'SUCCESS' }) }));
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, amount: '5000' });
      await fillTransfer(el);
      await submitUntil(el, 'pay-complete');
      expect(heading(el)!.textContent).to.equal('Payment received');
      expect(focused(el)).to.equal(heading(el));
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal('Payment received');
      await expectAccessible(el);
    });

    it('in the dark colour scheme, form and result', async () => {
      // Dark only on a page that declares it (issue 18).
      document.documentElement.style.colorScheme = 'light dark';
      await emulateMedia({ colorScheme: 'dark' });
      try {
        stubFetch(route({ session: () => json(ussdEnvelope()) }));
        const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
        await submitUntil(el, 'pay-error'); // the form with its error colours
        await expectAccessible(el);
        await fillUssd(el);
        await submitUntil(el, 'pay-initiated');
        await expectAccessible(el);
      } finally {
        document.documentElement.style.removeProperty('color-scheme');
        await emulateMedia({ colorScheme: 'light' });
      }
    });
  });

  describe('in Windows high contrast (forced colours)', () => {
    afterEach(() => executeServerCommand('forced-colors', { active: false }));

    it('still marks the chosen payment type and an invalid field, and outlines the dial code box', async () => {
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL });
      await executeServerCommand('forced-colors', { active: true });
      expect(matchMedia('(forced-colors: active)').matches).to.equal(true);

      const chosen = radio(el, 'USSD').closest('[part~="type-option"]')!;
      expect(getComputedStyle(chosen).outlineStyle, 'the checked option, whose shadow is dropped').to.equal('solid');
      expect(getComputedStyle(radio(el, 'TRANSFER').closest('[part~="type-option"]')!).outlineStyle).to.equal('none');
      await submitUntil(el, 'pay-error');
      expect(getComputedStyle(control(el, 'fullName')).outlineStyle, 'an invalid field').to.equal('solid');
      await expectAccessible(el);

      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      expect(getComputedStyle(part(el, 'dial-code')!.closest('.value')!).borderTopStyle).to.equal('solid');
      await expectAccessible(el);
    });
  });

  describe("under a merchant's own accent colour", () => {
    type AxeResult = { id: string; nodes: { target: unknown[] }[] };
    type AxeResults = { violations: AxeResult[]; passes: AxeResult[]; incomplete: AxeResult[] };

    /** axe's colour-contrast rule on the widget: what failed, and what it could check and passed. */
    async function contrast(el: PayWidget) {
      await expect(el).to.be.accessible(); // loads axe onto window
      const { axe } = window as unknown as { axe: { run: (context: Element, options: object) => Promise<AxeResults> } };
      const results = await axe.run(el, { runOnly: ['color-contrast'] });
      const targets = (list: AxeResult[]) =>
        list.flatMap((rule) => rule.nodes.map((node) => JSON.stringify(node.target)));
      return {
        failed: targets(results.violations),
        passed: targets(results.passes),
        unsure: targets(results.incomplete),
      };
    }

    // A light orange and a light green: as text on white, or under white text, both fail 4.5:1.
    for (const accent of ['#f5a623', '#7ed321']) {
      it(`keeps text readable with --pay-widget-color-accent: ${accent}, on the pay button and the copy button`, async () => {
        stubFetch(route({ session: () => json(transferEnvelope()) }));
        const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
        el.style.setProperty('--pay-widget-color-accent', accent);

        const form = await contrast(el);
        expect(form.failed, 'no contrast failure in the form').to.deep.equal([]);
        expect(
          form.passed.some((target) => target.includes('[part=\\"submit\\"]') || target.includes('button')),
          'axe measured the pay button',
        ).to.equal(true);

        await fillTransfer(el);
        await submitUntil(el, 'pay-initiated');
        const result = await contrast(el);
        expect(result.failed, 'no contrast failure in the result').to.deep.equal([]);
        expect(
          result.passed.some((target) => target.includes('copy-button')),
          'axe measured the copy button',
        ).to.equal(true);
      });
    }

    /** A CSS colour as the screen shows it: 8-bit sRGB, through a canvas. */
    function rgb(color: string): [number, number, number] {
      const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!];
    }
    /** WCAG 2 contrast ratio of two CSS colours. */
    function contrastRatio(a: string, b: string): number {
      const luminance = (color: string) => {
        const [r, g, b] = rgb(color).map((channel) => {
          const c = channel / 255;
          return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light! + 0.05) / (dark! + 0.05);
    }

    it('derives the pay button hover from the accent, readable, and keeps an explicit on-accent colour', async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      el.style.setProperty('--pay-widget-color-accent', '#f5a623');
      const pay = part(el, 'submit')!;
      const resting = getComputedStyle(pay).backgroundColor;
      pay.scrollIntoView({ block: 'center' });
      const box = pay.getBoundingClientRect();
      await sendMouse({
        type: 'move',
        position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
      });
      try {
        const hovered = getComputedStyle(pay);
        expect(hovered.backgroundColor, 'the hover shows').to.not.equal(resting);
        expect(contrastRatio(hovered.color, hovered.backgroundColor), 'readable while hovered').to.be.at.least(4.5);
      } finally {
        await sendMouse({ type: 'move', position: [0, 0] });
      }

      el.style.setProperty('--pay-widget-color-on-accent', 'rgb(255, 255, 255)');
      expect(getComputedStyle(pay).color, "the merchant's explicit choice wins").to.equal('rgb(255, 255, 255)');
    });

    it('draws the focus ring from the accent, at least 3:1 against the background', async () => {
      const el = await widget({ 'session-url': SESSION_URL });
      el.style.setProperty('--pay-widget-color-accent', '#7ed321');
      await press('Tab');
      const ring = getComputedStyle(focused(el)!).outlineColor;
      expect(contrastRatio(ring, getComputedStyle(el).backgroundColor)).to.be.at.least(3);
    });
  });

  describe('copy buttons', () => {
    it('are accessible saying "Copied", and after the clipboard refused', async () => {
      const el = await (async () => {
        stubFetch(route({ session: () => json(transferEnvelope()) }));
        const widgetEl = await widget({ 'session-url': SESSION_URL });
        await fillTransfer(widgetEl);
        await submitUntil(widgetEl, 'pay-initiated');
        return widgetEl;
      })();
      stubClipboard();
      const copied = nextEvent(el, 'pay-copy');
      part(el, 'copy-button')!.click();
      await copied;
      await el.updateComplete;
      expect(part(el, 'copy-button')!.textContent!.trim()).to.equal('Copied');
      await expectAccessible(el);

      stubClipboard(true);
      part(el, 'copy-button')!.click();
      await waitUntil(() => text(el).includes('Could not copy'));
      await expectAccessible(el);
    });

    it('copy the amount from the keyboard: Tab to it, Enter', async () => {
      const written = stubClipboard();
      stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL });
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      expect(focused(el)).to.equal(heading(el));

      await press('Tab');
      expect(focused(el)!.textContent!.trim()).to.equal('Copy account number');
      await press('Tab');
      expect(focused(el)!.textContent!.trim()).to.equal('Copy amount');
      const copied = nextEvent(el, 'pay-copy');
      await press('Enter');
      expect((await copied).detail.field).to.equal('amount');
      await el.updateComplete;
      expect(written).to.deep.equal(['7250']);
      expect(focused(el)!.textContent!.trim(), 'focus stays, the label says it worked').to.equal('Copied');
    });
  });

  describe('by keyboard alone', () => {
    it('takes focus on its first control when the page focuses the element (delegatesFocus)', async () => {
      const el = await widget({ 'session-url': SESSION_URL });
      el.focus();
      expect(document.activeElement).to.equal(el);
      expect(focused(el), 'the first payment type').to.equal(radio(el, 'USSD'));
    });

    it('goes from the choice to the transfer result: one tab stop for the radios, arrows switch, Enter submits', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      const types: string[] = [];
      el.addEventListener('pay-type-change', (event) => types.push(event.detail.paymentType));

      await press('Tab');
      expect(focused(el), 'Tab lands on the checked radio').to.equal(radio(el, 'USSD'));
      await press('ArrowRight');
      await el.updateComplete;
      expect(radio(el, 'TRANSFER').checked).to.equal(true);
      expect(focused(el)).to.equal(radio(el, 'TRANSFER'));
      await press('ArrowDown');
      await el.updateComplete;
      expect(radio(el, 'USSD').checked, 'arrows wrap around the group').to.equal(true);
      await press('ArrowUp');
      await el.updateComplete;
      expect(types).to.deep.equal(['TRANSFER', 'USSD', 'TRANSFER']);

      await press('Tab');
      expect(focused(el), 'the radio group is one tab stop').to.equal(control(el, 'fullName'));
      await type('Ada Obi');
      await press('Tab');
      expect(focused(el)).to.equal(control(el, 'email'));
      await type('ada@example.com');
      await press('Tab');
      expect(focused(el)).to.equal(control(el, 'mobileNumber'));
      await type('08012345678');

      const initiated = nextEvent(el, 'pay-initiated');
      await press('Enter');
      await initiated;
      await el.updateComplete;

      expect(calls).to.have.length(1);
      expect(JSON.parse(calls[0]!.body!)).to.deep.include({
        paymentType: 'TRANSFER',
        fullName: 'Ada Obi',
        email: 'ada@example.com',
        mobileNumber: '08012345678',
      });
      expect(focused(el), 'focus on the result heading').to.equal(heading(el));
      expect(heading(el)!.textContent).to.equal('Transfer to this account');

      await press('Tab');
      expect(focused(el), 'the copy button is next').to.equal(part(el, 'copy-button'));
    });

    it('goes from the choice to the USSD result, searching and picking a bank', async () => {
      const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });

      await press('Tab');
      expect(focused(el)).to.equal(radio(el, 'USSD'));
      for (const text of ['Ada Obi', 'ada@example.com', '0801 234 5678']) {
        await press('Tab');
        await type(text);
      }
      await press('Tab');
      expect(focused(el), 'then the bank search').to.equal(bankSearch(el));
      await type('zenith');
      await el.updateComplete;
      await press('Tab');
      expect(focused(el), 'then the bank list').to.equal(control(el, 'bankCode'));
      await press('ArrowDown');
      await el.updateComplete;
      expect(control<HTMLSelectElement>(el, 'bankCode').value).to.equal('057');
      await press('Tab');
      expect(focused(el), 'then pay').to.equal(part(el, 'submit'));

      const initiated = nextEvent(el, 'pay-initiated');
      await press('Enter');
      await initiated;
      await el.updateComplete;
      expect(JSON.parse(calls[0]!.body!)).to.deep.include({
        paymentType: 'USSD',
        bankCode: '057',
        mobileNumber: '08012345678',
      });
      expect(focused(el)).to.equal(heading(el));
      expect(heading(el)!.textContent).to.equal('Dial this code to pay');
    });

    it('moves focus to the first invalid field when Enter submits an incomplete form', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, 'payment-type': 'TRANSFER' });
      await press('Tab');
      await press('Tab');
      await type('Ada Obi');
      await press('Tab');
      await type('ada@example.com');
      await press('Tab');
      await press('Enter');
      await el.updateComplete;
      expect(focused(el)).to.equal(control(el, 'mobileNumber'));
      expect(calls).to.have.length(0);
    });

    it('retries from the error screen with the keyboard, focus on each new heading', async () => {
      const calls = stubFetch(
        route({
          session: (_, index) =>
            index === 0 ? json(errorBody('busy', 'Try again shortly'), 503) : json(transferEnvelope()),
        }),
      );
      const el = await widget({ 'session-url': SESSION_URL });
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      expect(focused(el)).to.equal(heading(el));
      await press('Tab');
      expect(focused(el)).to.equal(button(el, 'Try again'));
      const initiated = nextEvent(el, 'pay-initiated');
      await press('Enter');
      await initiated;
      await el.updateComplete;
      expect(calls).to.have.length(2);
      expect(focused(el)).to.equal(heading(el));
    });
  });
});
