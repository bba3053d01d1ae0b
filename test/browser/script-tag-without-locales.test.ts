/**
 * The script tag copied without its locale files, as a merchant may self-host it: the page asks for
 * Yoruba, the file beside the script is missing (404), and the widget stays in English, whole and
 * usable. test/browser/fixtures/script-tag-alone/pay-widget.iife.js is a link to the built
 * dist/pay-widget.iife.js, in a folder with nothing else in it.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { en } from '../../src/element/messages/en.js';
import { loadClassicScript } from './classic-script.js';

type LitLike = HTMLElement & { updateComplete: Promise<unknown> };

const SCRIPT = '/test/browser/fixtures/script-tag-alone/pay-widget.iife.js';

describe('the script tag without its locale files', () => {
  before(async () => {
    // The runner reuses its tabs: a payment another test file kept for a reload (issue 26) would be resumed here.
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    await loadClassicScript(SCRIPT);
  });

  it('keeps English when the locale file is missing, and the widget works', async () => {
    const el = await fixture<LitLike>(
      html`<pay-widget session-url="/pay/session" amount="5000" locale="yo"></pay-widget>`,
    );
    // The widget asked for the file in its first update. Importing it again waits on that same fetch,
    // so it fails in the same task as the widget's import or a later one; the widget's own reactions
    // to the failure are microtasks, all done by the next task.
    const file = new URL('pay-widget.yo.js', new URL(SCRIPT, location.href)).href;
    const error = await import(/* @vite-ignore */ file).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error, 'the locale file is missing').to.be.instanceOf(TypeError);
    await new Promise((nextTask) => setTimeout(nextTask));
    await el.updateComplete;
    const root = el.shadowRoot!;
    expect(root.querySelector('[lang]')?.getAttribute('lang')).to.equal('en');
    expect(root.querySelector('legend')!.textContent).to.equal(en.chooseType);
    expect(root.querySelector('label[for="fullName"]')!.textContent).to.equal(en.fullName);
    expect(root.querySelector('[part~="submit"]')!.textContent).to.match(/^\s*Pay .*5,000\.00\s*$/);
    // Still alive: a mistyped email shows its English error when the customer leaves the field.
    const email = root.querySelector<HTMLInputElement>('input[name="email"]')!;
    email.value = 'ada@';
    email.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    email.dispatchEvent(new FocusEvent('blur'));
    await el.updateComplete;
    expect(root.querySelector('#email-error')?.textContent).to.equal(en.emailInvalid);
    await expect(el).to.be.accessible();
  });
});
