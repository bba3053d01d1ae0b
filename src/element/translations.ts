// Each language's strings for the element: English built in, every other loaded on demand through loading/load.ts.
import { en, type Messages } from './messages/en.js';
import { load, loaded } from './loading/load.js';
import { ON_DEMAND_LOCALES, type OnDemandLocale } from './messages/locales.js';

/** Strings and the language they are written in, for the `lang` attribute. */
export type Translation = { readonly lang: string; readonly messages: Messages };

/**
 * The built-in English. The result screens' newer strings (en-after-submit.ts) come with what runs
 * after a submit, which LocaleController puts under these before any result screen shows.
 */
export const english: Translation = { lang: 'en', messages: en as Messages };

/** The on-demand locale a `locale` value asks for (`yo-NG` → `yo`), or undefined for English and anything unknown. */
export function onDemandLocale(locale: string): OnDemandLocale | undefined {
  const language = locale.trim().toLowerCase().split('-')[0];
  return ON_DEMAND_LOCALES.find((known) => known === language);
}

/**
 * The strings for `locale`: at once for English, for anything unknown and for a locale already
 * loaded; otherwise a promise of them, which never rejects: a locale that fails to load gives
 * English (and is tried again on the next call).
 */
export function loadTranslation(locale: string): Translation | Promise<Translation> {
  const wanted = onDemandLocale(locale);
  if (!wanted) return english;
  const ready = loaded(wanted);
  return ready
    ? translation(wanted, ready)
    : load(wanted).then(
        (module) => translation(wanted, module),
        () => english,
      );
}

// English fills in any key a file from another version of the package lacks.
const translation = (lang: OnDemandLocale, { messages }: { messages: unknown }): Translation => ({
  lang,
  messages: { ...en, ...(messages as Messages) },
});

/**
 * Loads `locale`'s strings ahead of time. On a server, await it before rendering with Lit SSR: a
 * widget then speaks that language from its first render (the browser loads a language as it is asked for).
 */
export async function loadLocale(locale: string): Promise<void> {
  await loadTranslation(locale);
}
