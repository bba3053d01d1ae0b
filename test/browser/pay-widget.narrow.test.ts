/**
 * On a 320 px phone screen the USSD dial code stays on one line (two lines read as two codes),
 * shrinking to fit its box when it must; the whole result stays within the screen. Each case also
 * saves a screenshot of the dial code's box to test-results/ for a person to look at.
 */
import { expect } from '@open-wc/testing';
import { executeServerCommand, setViewport } from '@web/test-runner-commands';
import {
  fillUssd,
  json,
  part,
  restoreAll,
  route,
  SESSION_URL,
  stubFetch,
  submitUntil,
  USSD_PAYMENTS,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

/** The line boxes the dial code's text is laid out in. */
function dialCodeLines(el: PayWidget): number {
  const range = document.createRange();
  range.selectNodeContents(part(el, 'dial-code')!);
  const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
  return tops.size;
}

async function ussdResult(ussdDailCode: string): Promise<PayWidget> {
  const payments = { ...USSD_PAYMENTS, ussdDailCode };
  stubFetch(route({ session: () => json(ussdEnvelope(payments)) }));
  const el = await widget({ 'session-url': SESSION_URL });
  await fillUssd(el);
  await submitUntil(el, 'pay-initiated');
  return el;
}

describe('<pay-widget>', () => {
  afterEach(async () => {
    restoreAll();
    await setViewport({ width: 800, height: 600 });
  });

  describe('on a 320 px screen', () => {
    beforeEach(() => setViewport({ width: 320, height: 640 }));

    for (const code of ['*737*000*4412#', '*894*000*1234567890#']) {
      it(`shows the dial code ${code} on one line, inside its box`, async () => {
        const el = await ussdResult(code);
        const dialCode = part(el, 'dial-code')!;
        expect(dialCode.textContent).to.equal(code);
        expect(dialCodeLines(el), 'one line box').to.equal(1);
        const box = dialCode.closest('.value')!.getBoundingClientRect();
        const text = dialCode.getBoundingClientRect();
        expect(text.right, 'not spilling out of its box').to.be.at.most(box.right);
        expect(el.getBoundingClientRect().right, 'the widget fits the screen').to.be.at.most(320);
        expect(document.documentElement.scrollWidth, 'no sideways scrolling').to.be.at.most(320);
        await expect(el).to.be.accessible();

        const shown = dialCode.closest('.value')!.getBoundingClientRect();
        const clip = { x: shown.x + scrollX, y: shown.y + scrollY, width: shown.width, height: shown.height };
        await executeServerCommand('screenshot', { name: `dial-code-320px-${code.length}-chars`, clip });
      });
    }

    it('keeps the dial code at full size when it fits', async () => {
      await setViewport({ width: 800, height: 600 });
      const el = await ussdResult('*737*000*4412#');
      const size = parseFloat(getComputedStyle(part(el, 'dial-code')!).fontSize);
      expect(size).to.equal(16 * 1.6);
    });
  });
});
