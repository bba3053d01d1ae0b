/**
 * Issue 26, "No content jumps", on a 320 px phone screen in every language: what the customer's own
 * actions bring ("Checking with your bank…", "Not received yet…", "We could not check…", "Copied",
 * a refused copy) and what the wait brings (the still-waiting note) move nothing that is already on
 * the screen: every heading, value box, button, list and line keeps its box.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { LOCALES } from '../strings.js';
import type { Messages } from '../../src/element/messages/index.js';
import {
  button,
  controlledClock,
  deferred,
  emulateDevice,
  fillTransfer,
  holdTimers,
  json,
  layoutOf,
  orderFor,
  part,
  parts,
  restoreAll,
  root,
  route,
  SESSION_URL,
  STATUS_URL,
  stubClipboard,
  stubFetch,
  submitUntil,
  text,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

const MINUTE = 60_000;

let clock: ReturnType<typeof controlledClock>;

const liveRegion = (el: PayWidget) => root(el).querySelector('[role="status"]')!;

async function transfer(locale: string, status: () => Response | Promise<Response>): Promise<PayWidget> {
  const order = {
    ...orderFor(TRANSFER_PAYMENTS),
    fee: '107.5',
    expiresAt: new Date(Date.now() + 30 * MINUTE).toISOString(),
    expiresInMs: 30 * MINUTE,
  };
  stubFetch(route({ session: () => json(transferEnvelope(TRANSFER_PAYMENTS, order)), status }));
  const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, locale });
  await waitUntil(
    () => root(el).querySelector('[lang]')?.getAttribute('lang') === locale,
    `the ${locale} strings arrive`,
  );
  await fillTransfer(el);
  await submitUntil(el, 'pay-initiated');
  return el;
}

/** The boxes of the widget and of everything it showed before `change`, after it. */
async function movedBy(el: PayWidget, change: () => Promise<void>): Promise<{ before: unknown; after: unknown }> {
  const before = { widget: el.getBoundingClientRect().toJSON(), ...layoutOf(el) };
  await change();
  await el.updateComplete;
  const after = { widget: el.getBoundingClientRect().toJSON(), ...layoutOf(el) };
  return { before, after };
}

describe('<pay-widget> on a 320 px screen, nothing jumps', function () {
  this.timeout(30_000);
  beforeEach(async () => {
    clock = controlledClock();
    emulateDevice('android');
    await setViewport({ width: 320, height: 640 });
  });
  afterEach(async () => {
    clock.restore();
    restoreAll();
    await setViewport({ width: 800, height: 600 });
  });

  for (const [locale, m] of Object.entries(LOCALES)) {
    describe(`in ${locale}`, () => {
      it('when "I’ve sent the money" says it is checking, then that the money has not arrived', async () => {
        holdTimers();
        const answer = deferred<Response>();
        const el = await transfer(locale, () => answer.promise);
        const checking = await movedBy(el, async () => {
          button(el, m.sentMoney)!.click();
          await waitUntil(() => text(el).includes(m.checking), 'checking');
        });
        expect(checking.after).to.deep.equal(checking.before);
        const notReceived = await movedBy(el, async () => {
          answer.resolve(json({ status: 'PENDING' }));
          await waitUntil(() => text(el).includes(m.notReceived), 'not received yet');
        });
        expect(notReceived.after).to.deep.equal(notReceived.before);
      });

      it('when the check could not be made', async () => {
        holdTimers();
        const el = await transfer(locale, () => json({ status: 'ERROR' }, 503));
        const { before, after } = await movedBy(el, async () => {
          button(el, m.sentMoney)!.click();
          await waitUntil(() => text(el).includes(m.checkFailed), 'could not check');
        });
        expect(after).to.deep.equal(before);
      });

      it('when a copy button says "Copied", or that the copy was refused', async () => {
        holdTimers();
        const el = await transfer(locale, () => json({ status: 'PENDING' }));
        for (const [index, copyButton] of parts(el, 'copy-button').entries()) {
          stubClipboard();
          const copied = await movedBy(el, async () => {
            copyButton.click();
            await waitUntil(() => liveRegion(el).textContent === m.copied, 'copied');
          });
          expect(copied.after, `button ${index}, copied`).to.deep.equal(copied.before);
          stubClipboard(true);
          const refused = await movedBy(el, async () => {
            copyButton.click();
            await waitUntil(() => liveRegion(el).textContent === m.copyFailed, 'refused');
          });
          expect(refused.after, `button ${index}, refused`).to.deep.equal(refused.before);
        }
      });

      it('when the still-waiting note appears after 10 minutes', async () => {
        holdTimers();
        const el = await transfer(locale, () => json({ status: 'PENDING' }));
        const { before, after } = await movedBy(el, async () => {
          clock.advance(10 * MINUTE);
          await waitUntil(() => root(el).querySelector('.note'), 'the note');
        });
        delete (after as Record<string, unknown>).widget; // the widget grows at its foot, where the note is
        delete (before as Record<string, unknown>).widget;
        expect(after).to.deep.equal(before);
      });
    });
  }
});

describe('<pay-widget> while the customer fills the form', () => {
  afterEach(restoreAll);

  it('prepares the screens shown after Pay unseen: none of them is left for a frame, and the form does not move', async () => {
    const el = await widget({ 'session-url': SESSION_URL });
    const formBoxes = () => layoutOf(el, 'form, form *');
    const before = formBoxes();
    const prepared: Element[] = [];
    const leftForAFrame: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const node of records.flatMap((record) => [...record.addedNodes])) {
        if (!(node instanceof Element) || node.closest('form')) continue;
        if (node.querySelector('[part~="dial-code"]')) prepared.push(node);
        requestAnimationFrame(() => node.isConnected && leftForAFrame.push(node.outerHTML.slice(0, 80)));
      }
    });
    observer.observe(root(el), { childList: true, subtree: true });
    await waitUntil(() => prepared.length > 0, 'the USSD screen prepared while the page is idle', { timeout: 5_000 });
    await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
    observer.disconnect();
    expect(leftForAFrame).to.deep.equal([]);
    expect(formBoxes()).to.deep.equal(before);
  });
});
