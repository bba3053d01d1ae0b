// <pay-widget> rendered on a server with Lit SSR (`@lit-labs/ssr`), in plain Node with the DOM shim
// Lit brings for Node: declarative shadow DOM holding the form as the browser would first show it,
// in the language asked for, with only the chosen payment type and bank selected.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html, type TemplateResult } from 'lit';
import { loadLocale } from '../../src/index.js';

const renderToString = (template: TemplateResult) => collectResult(render(template));

/** The markup without Lit's hydration comments, so that assertions read as HTML. */
const withoutMarkers = (markup: string) => markup.replace(/<!--\/?lit-(part|node)[^>]*-->/g, '');

/** The attributes of the first tag matching `pattern`, e.g. `<input … value="USSD" …>`. */
function tag(markup: string, pattern: RegExp): string {
  const found = [...markup.matchAll(/<(input|option)\b[^>]*>/g)]
    .map(([whole]) => whole)
    .find((whole) => pattern.test(whole));
  assert.ok(found, `no tag matching ${pattern}`);
  return found;
}

/** Whether the HTML parser would treat the tag's boolean attribute as set (any value, even "false"). */
const has = (tagText: string, attribute: string) => new RegExp(`\\s${attribute}(=|\\s|/?>)`).test(tagText);

describe('Lit SSR', () => {
  it('renders the form in English into declarative shadow DOM, with the page’s values', async () => {
    const markup = withoutMarkers(
      await renderToString(
        html`<pay-widget session-url="/pay" amount="5000" full-name="Ada Obi" email="ada@example.com" payment-type="ussd"></pay-widget>`,
      ),
    );
    assert.match(markup, /<pay-widget[^>]*><template shadowroot="open" shadowrootmode="open"/);
    assert.match(markup, /<div lang="en">/);
    assert.match(markup, /<form part="form"/);
    for (const label of ['Full name', 'Email address', 'Mobile number', 'Your bank'])
      assert.ok(markup.includes(label), label);
    assert.ok(markup.includes('₦5,000.00'));
    assert.ok(tag(markup, /name="fullName"/).includes('value="Ada Obi"'));
  });

  it('marks only the chosen payment type and bank as selected, as the HTML parser reads them', async () => {
    const markup = withoutMarkers(
      await renderToString(html`<pay-widget session-url="/pay" amount="5000" payment-type="ussd"></pay-widget>`),
    );
    assert.ok(has(tag(markup, /value="USSD"/), 'checked'), 'USSD is the chosen type');
    assert.ok(
      !has(tag(markup, /value="TRANSFER"/), 'checked'),
      'a "checked" attribute, whatever its value, checks the radio',
    );
    assert.ok(has(tag(markup, /<option\s+value=""/), 'selected'), '"Choose your bank" is shown');
    assert.ok(!has(tag(markup, /<option\s+value="057"/), 'selected'), 'no bank is chosen for the customer');
  });

  it('shows a prefilled field’s error, as the browser’s first render does', async () => {
    const markup = withoutMarkers(
      await renderToString(html`<pay-widget session-url="/pay" email="not-an-email"></pay-widget>`),
    );
    assert.match(markup, /<p part="error" id="email-error">Enter an email address/);
  });

  it('speaks French from the first render once its strings are loaded, from `locale` or the element’s own `lang`', async () => {
    await loadLocale('fr');
    for (const widget of [
      html`<pay-widget locale="fr" session-url="/pay" amount="5000"></pay-widget>`,
      html`<pay-widget lang="fr" session-url="/pay" amount="5000"></pay-widget>`,
    ]) {
      const markup = withoutMarkers(await renderToString(widget));
      assert.match(markup, /<div lang="fr">/);
      for (const label of ['Nom complet', 'Adresse e-mail', 'Numéro de mobile', 'Montant à payer'])
        assert.ok(markup.includes(label), label);
      assert.ok(!markup.includes('Full name'));
    }
  });
});
