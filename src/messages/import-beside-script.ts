import { localeFileName, type LocaleModule, type OnDemandLocale } from './locales.js';

/**
 * The script-tag build's `importLocale` (vite.config.ts puts it in place of `import-chunk.ts`): the
 * locale's file beside the script, e.g. `https://cdn.example/pay-widget@1/dist/pay-widget.yo.js` for
 * `…/dist/pay-widget.iife.js`. `document.currentScript` names the script only while it first runs,
 * so its address is read now.
 */
const scriptUrl = typeof document === 'undefined' ? undefined : (document.currentScript as HTMLScriptElement | null)?.src;

export async function importLocale(locale: OnDemandLocale): Promise<LocaleModule> {
  if (!scriptUrl) throw new Error('pay-widget: cannot tell where the script tag was loaded from');
  return import(/* @vite-ignore */ new URL(localeFileName(locale), scriptUrl).href);
}
