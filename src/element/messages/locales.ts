// The locales besides English, the names of their files beside the script tag, and where those are.

import { fileBesideScript } from '../beside-script.js';

/**
 * The locales besides English, each loaded on demand from its own module (`fr.ts`, `ha.ts`, …): a
 * separate chunk in the npm build, a separate file beside the script tag. English is built in.
 */
export const ON_DEMAND_LOCALES = ['fr', 'ha', 'ig', 'pcm', 'yo'] as const;

export type OnDemandLocale = (typeof ON_DEMAND_LOCALES)[number];

/** The file of a locale beside the script-tag build, e.g. `pay-widget.yo.js` beside `pay-widget.iife.js`. */
export const localeFileName = (locale: OnDemandLocale) => `pay-widget.${locale}.js`;

/** The address of a locale's file for the script tag loaded from `scriptUrl` (see `fileBesideScript`). */
export const localeFileUrl = (locale: OnDemandLocale, scriptUrl: string | undefined): string =>
  fileBesideScript(localeFileName(locale), scriptUrl);

/** What each locale module exports. */
export type LocaleModule = { messages: unknown };
