/**
 * <pay-widget> in each of its languages. English is built in and shows at once; fr, pcm, ha, yo
 * and ig load on demand, and the widget re-renders in them when they arrive. In every state the
 * customer reads the locale's own strings, and `lang` on the content tells screen readers how to
 * pronounce them.
 */
import { expect, fixture, waitUntil } from '@open-wc/testing';
import type { Messages } from '../../src/element/messages/en.js';
import { messages as fr } from '../../src/element/messages/fr.js';
import { messages as ha } from '../../src/element/messages/ha.js';
import { messages as ig } from '../../src/element/messages/ig.js';
import { loadTranslation } from '../../src/element/translations.js';
import { messages as pcm } from '../../src/element/messages/pcm.js';
import { messages as yo } from '../../src/element/messages/yo.js';
import {
  busyShown,
  clickSubmit,
  control,
  deferred,
  fillTransfer,
  fillUssd,
  heading,
  json,
  nextEvent,
  part,
  restoreAll,
  root,
  route,
  SESSION_URL,
  STATUS_URL,
  stubFetch,
  submitUntil,
  text,
  transferEnvelope,
  ussdEnvelope,
  widget,
  type Attributes,
  type PayWidget,
} from './helpers.js';
import { english as en } from '../strings.js';

const LOCALES = { fr, pcm, ha, yo, ig } satisfies Record<string, Messages>;
type Locale = keyof typeof LOCALES;

/** The language the widget's content is marked up in. */
const contentLang = (el: PayWidget) => root(el).querySelector('[lang]')?.getAttribute('lang');
const legend = (el: PayWidget) => root(el).querySelector('legend')?.textContent;

/** A widget in `locale`, once its strings have arrived. */
async function widgetIn(locale: string, lang: string, attributes: Attributes = {}): Promise<PayWidget> {
  const el = await widget({ 'session-url': SESSION_URL, amount: '5000', locale, ...attributes });
  await waitUntil(() => contentLang(el) === lang, `the ${lang} strings arrive`);
  return el;
}

/** The content speaks `locale`: these strings are shown in it, their English is not, and axe finds nothing. */
async function expectShown(el: PayWidget, locale: Locale, keys: (keyof Messages)[]): Promise<void> {
  const m = LOCALES[locale];
  expect(contentLang(el)).to.equal(locale);
  const shown = text(el); // whitespace collapsed, French narrow no-break spaces included
  const collapsed = (value: string) => value.replace(/\s+/g, ' ');
  for (const key of keys) {
    expect(m[key], `${locale}.${key} is translated`).not.to.equal(en[key]);
    expect(shown, `${locale}.${key}`).to.contain(collapsed(m[key]));
    expect(shown, `no English ${key}`).not.to.contain(collapsed(en[key]));
  }
  await expect(el).to.be.accessible();
}

describe('<pay-widget> locales', function () {
  // Thirty axe runs, and the complete state's first status look-up 2 s after the instructions:
  // more than mocha's 5 s per test on a busy machine.
  this.timeout(15_000);
  afterEach(restoreAll);

  // The first two tests use locales no other test has loaded yet in this page.
  it('shows English at once, then re-renders in the locale when it arrives', async () => {
    const el = document.createElement('pay-widget');
    el.sessionUrl = SESSION_URL;
    el.locale = 'ig';
    document.body.append(el);
    try {
      await el.updateComplete; // the first render: no network round trip has finished yet
      expect(contentLang(el)).to.equal('en');
      expect(legend(el)).to.equal(en.chooseType);
      await waitUntil(() => contentLang(el) === 'ig', 'Igbo arrives');
      expect(legend(el)).to.equal(ig.chooseType);
    } finally {
      el.remove();
    }
  });

  it('follows the latest locale when the page changes it while another is still loading', async () => {
    const el = await widget({ 'session-url': SESSION_URL, locale: 'pcm' });
    el.locale = 'ha';
    await waitUntil(() => contentLang(el) === 'ha', 'Hausa arrives');
    await loadTranslation('pcm'); // Pidgin has arrived too, after the page moved on from it
    await el.updateComplete;
    expect(contentLang(el)).to.equal('ha');
    expect(legend(el)).to.equal(ha.chooseType);
  });

  it('uses the language of a regional locale such as yo-NG, in any case, and marks the content with the tag', async () => {
    expect(legend(await widgetIn('yo-NG', 'yo-NG'))).to.equal(yo.chooseType);
    expect(legend(await widgetIn('PCM-ng', 'PCM-ng'))).to.equal(pcm.chooseType);
    const british = await widget({ 'session-url': SESSION_URL, locale: 'en-GB' });
    expect(contentLang(british)).to.equal('en-GB');
    expect(legend(british)).to.equal(en.chooseType);
  });

  for (const locale of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'xx', '']) {
    it(`shows English for locale="${locale}", never blank strings`, async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', locale });
      await loadTranslation(locale);
      await el.updateComplete;
      expect(contentLang(el)).to.equal('en');
      expect(legend(el)).to.equal(en.chooseType);
      expect(control(el, 'fullName').labels![0]!.textContent).to.equal(en.fullName);
    });
  }

  it('speaks the page’s language when locale is not set, loading it like any other', async () => {
    const page = await fixture<HTMLDivElement>(
      `<div lang="ha-NG"><pay-widget session-url="${SESSION_URL}"></pay-widget></div>`,
    );
    const el = page.querySelector('pay-widget')!;
    await waitUntil(() => contentLang(el) === 'ha-NG', 'Hausa arrives');
    expect(legend(el)).to.equal(ha.chooseType);
  });

  it('re-renders when the page switches locale', async () => {
    const el = await widgetIn('fr', 'fr');
    el.locale = 'yo';
    await waitUntil(() => contentLang(el) === 'yo', 'Yoruba arrives');
    expect(legend(el)).to.equal(yo.chooseType);
    el.locale = 'en';
    await el.updateComplete;
    expect(contentLang(el)).to.equal('en');
    expect(legend(el)).to.equal(en.chooseType);
  });

  it('lets the messages property override a loaded locale, key by key', async () => {
    const el = await widgetIn('yo', 'yo');
    el.messages = { fullName: 'Orúkọ tó wà lórí àkáǹtì rẹ' };
    await el.updateComplete;
    expect(control(el, 'fullName').labels![0]!.textContent).to.equal('Orúkọ tó wà lórí àkáǹtì rẹ');
    expect(control(el, 'email').labels![0]!.textContent).to.equal(yo.email);
  });

  for (const locale of Object.keys(LOCALES) as Locale[]) {
    describe(`locale="${locale}"`, () => {
      const m = LOCALES[locale];

      it('form', async () => {
        const el = await widgetIn(locale, locale);
        await expectShown(el, locale, ['chooseType', 'fullName', 'mobileNumber', 'USSDHint', 'TRANSFERHint']);
      });

      it('submitting', async () => {
        const answer = deferred<Response>();
        stubFetch(route({ session: () => answer.promise }));
        const el = await widgetIn(locale, locale);
        await fillUssd(el);
        const submitted = nextEvent(el, 'pay-submit');
        clickSubmit(el);
        await submitted;
        await busyShown(el);
        expect(part(el, 'submit')!.textContent!.trim()).to.equal(m.submitting);
        await expectShown(el, locale, ['submitting']);
        answer.resolve(json(ussdEnvelope()));
      });

      it('USSD result', async () => {
        stubFetch(route({ session: () => json(ussdEnvelope()) }));
        const el = await widgetIn(locale, locale);
        await fillUssd(el);
        await submitUntil(el, 'pay-initiated');
        expect(heading(el)!.textContent).to.equal(m.ussdTitle);
        await expectShown(el, locale, ['ussdTitle', 'ussdSteps']);
      });

      it('transfer result', async () => {
        stubFetch(route({ session: () => json(transferEnvelope()) }));
        const el = await widgetIn(locale, locale);
        await fillTransfer(el);
        await submitUntil(el, 'pay-initiated');
        expect(heading(el)!.textContent).to.equal(m.transferTitle);
        await expectShown(el, locale, ['transferTitle', 'transferSteps']);
      });

      it('error', async () => {
        stubFetch(route({ session: () => Promise.reject(new TypeError('Failed to fetch')) }));
        const el = await widgetIn(locale, locale);
        await fillTransfer(el);
        await submitUntil(el, 'pay-error');
        expect(heading(el)!.textContent).to.equal(m.errorTitle);
        await expectShown(el, locale, ['errorTitle', 'error-network']);
      });

      it('complete', async () => {
        stubFetch(route({ session: () => json(ussdEnvelope()), status: () => json({ status: 'SUCCESS' }) }));
        const el = await widgetIn(locale, locale, { 'status-url': STATUS_URL });
        await fillUssd(el);
        const completed = nextEvent(el, 'pay-complete');
        await submitUntil(el, 'pay-initiated');
        expect(text(el)).to.contain(m.waiting);
        await completed;
        await el.updateComplete;
        expect(heading(el)!.textContent).to.equal(m.SUCCESSTitle);
        await expectShown(el, locale, ['SUCCESSTitle', 'SUCCESSText']);
      });
    });
  }
});
