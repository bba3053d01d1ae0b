/**
 * The script tag pasted inline (its text in a `<script>` with no `src`) without `data-files-url`:
 * it cannot know where its other files are. It says so in one console line, never throws: the form
 * shows, a language stays English, and Pay reports `setup` (the form is not set up) with nothing sent.
 * The build before issue 36 threw an uncaught "Invalid URL" here.
 */
import { expect, fixture, oneEvent } from '@open-wc/testing';
import { en } from '../../src/element/messages/en.js';
import { pasteScriptInline, uncaughtErrors } from './inline-script.js';

type Widget = HTMLElement & { updateComplete: Promise<unknown> };

describe('the script tag pasted inline, without data-files-url', () => {
  const realFetch = window.fetch;
  const realError = console.error;
  const logged: string[] = [];
  const sent: string[] = [];
  let uncaught: string[];

  before(async () => {
    sessionStorage.clear();
    expect(customElements.get('pay-widget'), 'nothing else defines <pay-widget> on this page').to.equal(undefined);
    uncaught = uncaughtErrors();
    console.error = (...args: unknown[]) => void logged.push(args.join(' '));
    await pasteScriptInline();
    window.fetch = async (input: RequestInfo | URL) => {
      sent.push(String(input));
      throw new TypeError('no request expected');
    };
  });
  after(() => {
    window.fetch = realFetch;
    console.error = realError;
  });

  it('says so in one console line, shows the form in English, and Pay reports setup', async () => {
    const el = await fixture<Widget>(
      `<pay-widget session-url="/pay/session" amount="5000" payment-types="TRANSFER" locale="yo" full-name="Ada Obi" email="ada@example.com" mobile-number="08012345678"></pay-widget>`,
    );
    const root = el.shadowRoot!;
    expect(root.querySelector('label[for="fullName"]')!.textContent, 'the form shows').to.equal(en.fullName);
    const failed = oneEvent(el, 'pay-error');
    root.querySelector<HTMLButtonElement>('[part~="submit"]')!.click();
    expect((await failed).detail).to.include({ code: 'setup', retryable: false, message: en['error-setup'] });
    await el.updateComplete;
    expect(root.querySelector('[lang]')!.getAttribute('lang'), 'Yoruba cannot be loaded').to.equal('en');
    expect(logged).to.deep.equal(['pay-widget: an inline script needs data-files-url, its files’ folder']);
    expect(sent, 'nothing sent').to.deep.equal([]);
    expect(uncaught, 'no uncaught error').to.deep.equal([]);
  });
});
