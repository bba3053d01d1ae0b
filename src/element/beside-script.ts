// Files the script tag loads from beside itself (the locales, what runs after a submit): where they
// are, and importing one. Only the script-tag build's importers call `importBesideScript`.

/**
 * `document.currentScript` names the script only while it first runs, so its address is read now.
 * Without one (the code was not run by a script tag), `fileBesideScript` throws.
 */
const scriptUrl =
  typeof document === 'undefined' ? undefined : (document.currentScript as HTMLScriptElement | null)?.src;

/**
 * The address of `fileName` for the script tag loaded from `scriptUrl`: beside the script
 * (`…/dist/pay-widget.iife.js` → `…/dist/pay-widget.yo.js`) or, when that address names the package
 * rather than a file, as CDNs allow (`https://unpkg.com/pay-widget@1`), in the package's `dist/`.
 * Never beside a package: `https://unpkg.com/pay-widget.yo.js` would be another npm package.
 */
export function fileBesideScript(fileName: string, scriptUrl: string | undefined): string {
  const base = new URL(scriptUrl ?? ''); // no address: a TypeError, as for any unusable one
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('.js')) base.pathname = `${base.pathname.replace(/\/$/, '')}/dist/`;
  return new URL(fileName, base).href;
}

/** The address of `fileName` beside this script. */
export const besideThisScript = (fileName: string): string => fileBesideScript(fileName, scriptUrl);

/** Imports the ES module `fileName` from beside this script; `search` (e.g. `?retry=1`) makes it a new fetch. */
export function importBesideScript<T>(fileName: string, search = ''): Promise<T> {
  return import(/* @vite-ignore */ besideThisScript(fileName) + search);
}
