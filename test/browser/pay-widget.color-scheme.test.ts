/**
 * Issue 18, "Dark only when the page is dark": a customer's dark-mode phone darkens the widget only
 * on a page that declares it supports dark (its root's `color-scheme`, or `<meta name="color-scheme">`);
 * the `color-scheme` attribute (or property) forces light or dark. Dark stays accessible.
 */
import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import {
  fillUssd,
  json,
  restoreAll,
  route,
  SESSION_URL,
  stubFetch,
  submitUntil,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

/** The default backgrounds, light and dark. */
const LIGHT = 'rgb(255, 255, 255)';
const DARK = 'rgb(22, 25, 29)';

const background = (el: PayWidget) => getComputedStyle(el).backgroundColor;

/** The page declares support for dark, the way a stylesheet (`:root { color-scheme }`) or a meta tag does. */
function pageSupports(how: 'root' | 'meta', schemes: string): () => void {
  if (how === 'root') {
    document.documentElement.style.colorScheme = schemes;
    return () => document.documentElement.style.removeProperty('color-scheme');
  }
  const meta = Object.assign(document.createElement('meta'), { name: 'color-scheme', content: schemes });
  document.head.append(meta);
  return () => meta.remove();
}

describe('<pay-widget> colour scheme', () => {
  let undo: (() => void) | undefined;
  afterEach(async () => {
    undo?.();
    undo = undefined;
    restoreAll();
    await emulateMedia({ colorScheme: 'light' });
  });

  it('stays light on a page that does not declare dark, even when the customer prefers dark', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const el = await widget();
    expect(background(el)).to.equal(LIGHT);
  });

  for (const how of ['root', 'meta'] as const) {
    it(`is dark on a page whose ${how === 'root' ? "root's color-scheme" : 'meta tag'} says "light dark", when the customer prefers dark`, async () => {
      undo = pageSupports(how, 'light dark');
      await emulateMedia({ colorScheme: 'dark' });
      const el = await widget();
      expect(background(el)).to.equal(DARK);
      await emulateMedia({ colorScheme: 'light' });
      expect(background(el), 'and light when the customer prefers light').to.equal(LIGHT);
    });
  }

  it('is dark with color-scheme="dark" on a light page, light with color-scheme="light" on a dark one', async () => {
    const dark = await widget({ 'session-url': SESSION_URL, 'color-scheme': 'dark' });
    expect(background(dark)).to.equal(DARK);

    undo = pageSupports('root', 'light dark');
    await emulateMedia({ colorScheme: 'dark' });
    const light = await widget({ 'session-url': SESSION_URL, 'color-scheme': 'light' });
    expect(background(light)).to.equal(LIGHT);
    const auto = await widget({ 'session-url': SESSION_URL, 'color-scheme': 'auto' });
    expect(background(auto), '"auto" follows the page').to.equal(DARK);
  });

  it('takes the colorScheme property as frameworks set it', async () => {
    const el = await widget();
    el.colorScheme = 'dark';
    await el.updateComplete;
    expect(el.getAttribute('color-scheme')).to.equal('dark');
    expect(background(el)).to.equal(DARK);
    el.colorScheme = undefined;
    await el.updateComplete;
    expect(el.hasAttribute('color-scheme')).to.equal(false);
    expect(background(el)).to.equal(LIGHT);
  });

  it("darkens the form's native controls with it", async () => {
    const el = await widget({ 'session-url': SESSION_URL, 'color-scheme': 'dark' });
    const input = el.shadowRoot!.querySelector('input:not([type=radio])')!;
    expect(getComputedStyle(input).colorScheme).to.equal('dark');
  });

  for (const forced of [false, true]) {
    it(`is accessible in dark, form and result (${forced ? 'forced by the attribute' : 'on a dark page'})`, async () => {
      if (!forced) {
        undo = pageSupports('meta', 'light dark');
        await emulateMedia({ colorScheme: 'dark' });
      }
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({
        'session-url': SESSION_URL,
        amount: '5000',
        ...(forced ? { 'color-scheme': 'dark' } : {}),
      });
      expect(background(el)).to.equal(DARK);
      await submitUntil(el, 'pay-error'); // the form with its error colours
      await expect(el).to.be.accessible();
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      await expect(el).to.be.accessible();
    });
  }
});
