// The locales besides English.

/**
 * The locales besides English, each loaded on demand from its own module (`fr.ts`, `ha.ts`, …): a
 * separate chunk in the npm build, a separate file beside the script tag. English is built in.
 */
export const ON_DEMAND_LOCALES = ['fr', 'ha', 'ig', 'pcm', 'yo'] as const;

export type OnDemandLocale = (typeof ON_DEMAND_LOCALES)[number];

/** What each locale module exports. */
export type LocaleModule = { messages: unknown };
