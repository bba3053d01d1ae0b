import type { LocaleModule, OnDemandLocale } from './locales.js';

/**
 * Imports a locale's module by name. Each `import()` names its module literally, so that bundlers
 * (ours for the npm build, then the merchant's) make each locale a chunk of its own.
 *
 * The script-tag build replaces this module with `import-beside-script.ts` (see vite.config.ts).
 */
export function importLocale(locale: OnDemandLocale): Promise<LocaleModule> {
  switch (locale) {
    case 'fr':
      return import('./fr.js');
    case 'ha':
      return import('./ha.js');
    case 'ig':
      return import('./ig.js');
    case 'pcm':
      return import('./pcm.js');
    case 'yo':
      return import('./yo.js');
  }
}
