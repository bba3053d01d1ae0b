// Amounts as the customer reads them: in their currency, written the way their language and
// country write money (`₦5,000.00`, `5 000,00 F CFA`).

/** One formatter per locale tag and currency: each `new Intl.NumberFormat` costs a few tenths of a millisecond. */
const amountFormats = new Map<string, Intl.NumberFormat>();

/**
 * `amount` in `currency` for a customer speaking `language` in `country`, or '' when there is no
 * amount to show. `fr` + `CI` is written as in `fr-CI`; a language that names its own region
 * (`en-GB`) is used as written. A language the browser has no number data for (Chrome has none for
 * pcm, ha, yo, ig) is written as the country's English (`en-NG`), not as the browser's own
 * language. Naira is always `₦`, in every language (Intl's `symbol` is `NGN` outside `en-NG`): it
 * is what bank apps, receipts and prices in Nigeria show, and no other currency uses it; other
 * currencies keep their full symbol (`US$`, not a `$` that any dollar could be). A currency or tag
 * the browser does not know gives `NGN 5000`.
 */
export function formatAmount(amount: string, currency: string, language: string, country: string): string {
  const value = Number(amount);
  if (!amount || !Number.isFinite(value)) return '';
  const tag = language.includes('-') ? language : `${language}-${country}`;
  const key = `${tag} ${currency}`;
  try {
    let formatter = amountFormats.get(key);
    if (!formatter) {
      const currencyDisplay = currency.toUpperCase() === 'NGN' ? 'narrowSymbol' : 'symbol';
      formatter = new Intl.NumberFormat([tag, `en-${country}`], { style: 'currency', currency, currencyDisplay });
      amountFormats.set(key, formatter);
    }
    return formatter.format(value);
  } catch {
    return `${currency} ${amount}`;
  }
}
