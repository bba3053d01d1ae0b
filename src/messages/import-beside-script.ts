import { localeFileUrl, type LocaleModule, type OnDemandLocale } from './locales.js';

/**
 * The script-tag build's `importLocale` (vite.config.ts puts it in place of `import-chunk.ts`): the
 * locale's file beside the script (see `localeFileUrl`). `document.currentScript` names the script
 * only while it first runs, so its address is read now. Without one (the code was not run by a
 * script tag), `localeFileUrl` throws and the widget stays in English.
 */
const scriptUrl = typeof document === 'undefined' ? undefined : (document.currentScript as HTMLScriptElement | null)?.src;

export async function importLocale(locale: OnDemandLocale): Promise<LocaleModule> {
  return import(/* @vite-ignore */ localeFileUrl(locale, scriptUrl));
}
