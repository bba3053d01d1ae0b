/**
 * Issue 18, "No layout jump": pressing a copy button on a phone-width screen moves nothing (the
 * button keeps its width when it says "Copied", so the card keeps its size), and a long payment
 * reference wraps only between its groups, never inside one.
 */
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import {
  lineBreaks,
  fillTransfer,
  fillUssd,
  json,
  orderFor,
  parts,
  restoreAll,
  root,
  route,
  SESSION_URL,
  stubClipboard,
  stubFetch,
  submitUntil,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

async function result(type: 'USSD' | 'TRANSFER', paymentReference?: string): Promise<PayWidget> {
  const payments = { ...TRANSFER_PAYMENTS, ...(paymentReference ? { paymentReference } : {}) };
  const body = type === 'USSD' ? ussdEnvelope() : transferEnvelope(payments, orderFor(payments));
  stubFetch(route({ session: () => json(body) }));
  const el = await widget({ 'session-url': SESSION_URL });
  await (type === 'USSD' ? fillUssd(el) : fillTransfer(el));
  await submitUntil(el, 'pay-initiated');
  return el;
}

const box = (element: Element) => {
  const { x, y, width, height } = element.getBoundingClientRect();
  return { x, y, width, height };
};

describe('<pay-widget>', () => {
  afterEach(async () => {
    restoreAll();
    await setViewport({ width: 800, height: 600 });
  });

  for (const width of [360, 414]) {
    describe(`at ${width} px wide`, () => {
      beforeEach(() => setViewport({ width, height: 800 }));

      for (const type of ['TRANSFER', 'USSD'] as const) {
        it(`keeps the ${type} card and each copy button where they are when it says "Copied"`, async () => {
          stubClipboard();
          const el = await result(type);
          for (const [index, button] of parts(el, 'copy-button').entries()) {
            const before = { card: box(el), button: box(button) };
            button.click();
            await el.updateComplete;
            await new Promise((done) => setTimeout(done));
            await el.updateComplete;
            expect(button.textContent!.trim(), `button ${index} says so`).to.equal('Copied');
            expect({ card: box(el), button: box(button) }, `button ${index}`).to.deep.equal(before);
          }
        });
      }
    });
  }

  describe('a long payment reference', () => {
    // What the server makes when the order resolver gives none: `pw-` and 32 hex digits.
    const reference = 'pw-3f9a0c1d7b2e48a6905fd3c1e27b8a44';

    for (const width of [320, 360, 414]) {
      it(`wraps only between groups of four at ${width} px, and still reads (and copies) as one`, async () => {
        await setViewport({ width, height: 800 });
        const el = await result('TRANSFER', reference);
        const shown = [...root(el).querySelectorAll('dd')].find((dd) => dd.textContent === reference);
        expect(shown, 'the reference, whole').to.exist;
        const breaks = lineBreaks(shown!);
        expect(breaks.length, 'long enough to wrap here').to.be.at.least(1);
        for (const at of breaks) {
          expect(at === 3 || (at > 3 && (at - 3) % 4 === 0), `breaks before "${reference.slice(at)}"`).to.equal(true);
        }
      });
    }
  });
});
