/**
 * The language the widget speaks and marks: `locale` when set, else the page's `lang` around the
 * element, else English; its text carries `lang` so screen readers pronounce it right.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { loadTranslation } from '../../src/element/translations.js';
import { restoreAll, root, SESSION_URL, widget, type PayWidget } from './helpers.js';

/** The `lang` the widget's own text is marked with. */
const spokenLanguage = (el: PayWidget) => root(el).querySelector('legend')!.closest('[lang]')!.getAttribute('lang');
const legend = (el: PayWidget) => root(el).querySelector('legend')!.textContent;

const ENGLISH = 'How would you like to pay?';
const FRENCH = 'Comment souhaitez-vous payer\u202f?';

describe('<pay-widget>', () => {
  // French loads on demand (test/browser/locales.test.ts shows English until it arrives); loaded
  // first here, so that each test sees at once which language the widget chose.
  before(() => loadTranslation('fr'));
  afterEach(restoreAll);

  describe('its language', () => {
    it('marks French text lang="fr" on an English page, so it is pronounced in French', async () => {
      const page = await fixture<HTMLDivElement>(html`<div lang="en">
        <pay-widget session-url=${SESSION_URL} locale="fr"><p slot="header">Acme checkout</p></pay-widget>
      </div>`);
      const el = page.querySelector('pay-widget')!;
      await el.updateComplete;
      expect(legend(el)).to.equal(FRENCH);
      expect(spokenLanguage(el)).to.equal('fr');
      expect(
        root(el).querySelector('[role="status"]')!.closest('[lang]')!.getAttribute('lang'),
        'the live region too',
      ).to.equal('fr');
      expect(
        el.querySelector('p')!.closest('[lang]')!.getAttribute('lang'),
        "the merchant's slotted header keeps the page's",
      ).to.equal('en');
      expect(el.hasAttribute('lang'), 'no attribute sprouts on the host').to.equal(false);
      await expect(el).to.be.accessible();
    });

    it('keeps a regional locale as written: locale="fr-CI"', async () => {
      const el = await widget({ 'session-url': SESSION_URL, locale: 'fr-CI' });
      expect(legend(el)).to.equal(FRENCH);
      expect(spokenLanguage(el)).to.equal('fr-CI');
    });

    it("follows the nearest ancestor's lang when locale is not set", async () => {
      const page = await fixture<HTMLDivElement>(html`<div lang="en"><section lang="fr">
        <pay-widget session-url=${SESSION_URL} amount="5000" currency="XOF" country="CI"></pay-widget>
      </section></div>`);
      const el = page.querySelector('pay-widget')!;
      await el.updateComplete;
      expect(legend(el)).to.equal(FRENCH);
      expect(spokenLanguage(el)).to.equal('fr');
      expect(root(el).querySelector('.amount')!.textContent, 'formatted the French way').to.match(/^5\s000\sF\s?CFA$/);
    });

    it("follows the lang of the page's <html> element", async () => {
      const before = document.documentElement.getAttribute('lang');
      document.documentElement.lang = 'fr';
      try {
        const el = await widget();
        expect(legend(el)).to.equal(FRENCH);
        expect(spokenLanguage(el)).to.equal('fr');
      } finally {
        if (before === null) document.documentElement.removeAttribute('lang');
        else document.documentElement.lang = before;
      }
    });

    it('looks out through shadow roots: inside a French component', async () => {
      const host = await fixture<HTMLDivElement>(html`<div lang="fr"></div>`);
      const shadow = host.attachShadow({ mode: 'open' });
      shadow.innerHTML = `<div><pay-widget session-url="${SESSION_URL}"></pay-widget></div>`;
      const el = shadow.querySelector('pay-widget')!;
      await el.updateComplete;
      expect(legend(el)).to.equal(FRENCH);
      expect(spokenLanguage(el)).to.equal('fr');
    });

    it('lets locale win over the page', async () => {
      const page = await fixture<HTMLDivElement>(
        html`<div lang="fr"><pay-widget session-url=${SESSION_URL} locale="en"></pay-widget></div>`,
      );
      const el = page.querySelector('pay-widget')!;
      await el.updateComplete;
      expect(legend(el)).to.equal(ENGLISH);
      expect(spokenLanguage(el)).to.equal('en');
    });

    it('speaks and marks English on a page in a language it has no strings for', async () => {
      const page = await fixture<HTMLDivElement>(
        html`<div lang="de"><pay-widget session-url=${SESSION_URL}></pay-widget></div>`,
      );
      const el = page.querySelector('pay-widget')!;
      await el.updateComplete;
      expect(legend(el)).to.equal(ENGLISH);
      expect(spokenLanguage(el), 'English text is not marked German').to.equal('en');
    });

    it("marks the merchant's own language when the messages property supplies the strings", async () => {
      const el = await widget({ 'session-url': SESSION_URL, locale: 'de' });
      el.messages = { chooseType: 'Wie möchten Sie bezahlen?' };
      await el.updateComplete;
      expect(legend(el)).to.equal('Wie möchten Sie bezahlen?');
      expect(spokenLanguage(el)).to.equal('de');
    });

    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '']) {
      it(`keeps every string with locale="${name}"`, async () => {
        const el = await widget({ 'session-url': SESSION_URL, locale: name });
        expect(legend(el)).to.equal(ENGLISH);
        expect(root(el).querySelector('label[for="fullName"]')!.textContent).to.equal('Full name');
        expect(spokenLanguage(el)).to.equal('en');
      });
    }

    it('keeps every string on a page whose lang is "__proto__"', async () => {
      const page = await fixture<HTMLDivElement>(
        html`<div lang="__proto__"><pay-widget session-url=${SESSION_URL}></pay-widget></div>`,
      );
      const el = page.querySelector('pay-widget')!;
      await el.updateComplete;
      expect(legend(el)).to.equal(ENGLISH);
      expect(spokenLanguage(el)).to.equal('en');
    });
  });
});
