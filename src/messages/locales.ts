/**
 * The locales besides English, each loaded on demand from its own module (`fr.ts`, `ha.ts`, …): a
 * separate chunk in the npm build, a separate file beside the script tag. English is built in.
 */
export const ON_DEMAND_LOCALES = ['fr', 'ha', 'ig', 'pcm', 'yo'] as const;

export type OnDemandLocale = (typeof ON_DEMAND_LOCALES)[number];

/** The file of a locale beside the script-tag build, e.g. `pay-widget.yo.js` beside `pay-widget.iife.js`. */
export const localeFileName = (locale: OnDemandLocale) => `pay-widget.${locale}.js`;

/**
 * The address of a locale's file for the script tag loaded from `scriptUrl`: beside the script
 * (`…/dist/pay-widget.iife.js` → `…/dist/pay-widget.yo.js`) or, when that address names the package
 * rather than a file, as CDNs allow (`https://unpkg.com/pay-widget@1`), in the package's `dist/`.
 * Never beside a package: `https://unpkg.com/pay-widget.yo.js` would be another npm package.
 */
export function localeFileUrl(locale: OnDemandLocale, scriptUrl: string | undefined): string {
  const base = new URL(scriptUrl ?? ''); // no address: a TypeError, as for any unusable one
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('.js')) base.pathname = `${base.pathname.replace(/\/$/, '')}/dist/`;
  return new URL(localeFileName(locale), base).href;
}

/** What each locale module exports. */
export type LocaleModule = { messages: unknown };
