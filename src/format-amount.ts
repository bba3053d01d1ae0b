// Amounts as the customer reads them: in their currency, written the way their language and
// country write money (`₦5,000.00`, `5 000,00 F CFA`).

/** One formatter per locale tag and currency: each `new Intl.NumberFormat` costs a few tenths of a millisecond. */
const amountFormats = new Map<string, Intl.NumberFormat>();

/**
 * `amount` in `currency` for a customer speaking `language` in `country`, or '' when there is no
 * amount to show. `fr` + `CI` is written as in `fr-CI`; a language that names its own region
 * (`en-GB`) is used as written. A currency or tag the browser does not know gives `NGN 5000`.
 */
export function formatAmount(amount: string, currency: string, language: string, country: string): string {
  const value = Number(amount);
  if (!amount || !Number.isFinite(value)) return '';
  const tag = language.includes('-') ? language : `${language}-${country}`;
  const key = `${tag} ${currency}`;
  try {
    let formatter = amountFormats.get(key);
    if (!formatter) amountFormats.set(key, (formatter = new Intl.NumberFormat(tag, { style: 'currency', currency })));
    return formatter.format(value);
  } catch {
    return `${currency} ${amount}`;
  }
}
