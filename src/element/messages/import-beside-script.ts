// The script-tag build's `importLocale` (vite.config.ts puts it in place of `import-chunk.ts`): the
// locale's file beside the script (see `fileBesideScript`). Without a script address (the code was
// not run by a script tag), the import fails and the widget stays in English.
import { importBesideScript } from '../beside-script.js';
import { localeFileName, type LocaleModule, type OnDemandLocale } from './locales.js';

export function importLocale(locale: OnDemandLocale): Promise<LocaleModule> {
  return importBesideScript(localeFileName(locale));
}
