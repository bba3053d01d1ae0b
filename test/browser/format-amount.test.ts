// ₦ whatever the language (issue 18, "₦, whatever the language"): Chrome has no currency data for
// pcm, ha, yo and ig, and its `symbol` for naira is `NGN` in every language but `en-NG`.
import { expect, waitUntil } from '@open-wc/testing';
import { formatAmount } from '../../src/element/format-amount.js';
import { restoreAll, root, SESSION_URL, widget } from './helpers.js';

/** Narrow no-break spaces (French grouping) and no-break spaces written as plain spaces. */
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('formatAmount', () => {
  it('writes naira as ₦5,000.00 in English and in the Nigerian languages', () => {
    for (const language of ['en', 'pcm', 'ha', 'yo', 'ig', 'en-NG', 'pcm-NG', 'yo-NG']) {
      expect(formatAmount('5000', 'NGN', language, 'NG'), language).to.equal('₦5,000.00');
    }
    expect(formatAmount('5000.5', 'ngn', 'pcm', 'NG')).to.equal('₦5,000.50');
  });

  it('writes naira with ₦ in French too, grouped the French way', () => {
    for (const country of ['NG', 'BJ', 'CI']) {
      expect(plain(formatAmount('5000', 'NGN', 'fr', country)), country).to.equal('5 000,00 ₦');
    }
  });

  it("writes a language the browser does not know as the country's English, not as NGN 5,000.00", () => {
    expect(formatAmount('5000', 'NGN', 'tiv', 'NG')).to.equal('₦5,000.00');
  });

  it('keeps the unambiguous symbol of other currencies', () => {
    expect(formatAmount('5000', 'USD', 'en', 'NG')).to.equal('US$5,000.00');
    expect(formatAmount('5000', 'USD', 'en-US', 'NG')).to.equal('$5,000.00');
    expect(plain(formatAmount('5000', 'XOF', 'fr', 'CI'))).to.match(/^5 000 F\s?CFA$/);
  });
});

describe('<pay-widget> amount', () => {
  afterEach(restoreAll);

  for (const locale of ['pcm', 'ha', 'yo', 'ig']) {
    it(`shows ₦5,000.00 in ${locale}`, async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', locale });
      await waitUntil(
        () => root(el).querySelector('[lang]')?.getAttribute('lang') === locale,
        `the ${locale} strings arrive`,
      );
      expect(root(el).querySelector('.amount')!.textContent).to.equal('₦5,000.00');
    });
  }
});
