// Where the script tag's other files are: the folder the page names in the script's `data-files-url`
// (for a script pasted inline, as some site builders do, or files hosted elsewhere), else beside the
// script's own `src`. Read once, while the script first runs: `document.currentScript` names it then only.

/** The script tag running now, if any (none on a server, in a module, or once it has run). */
const script = typeof document === 'undefined' ? null : (document.currentScript as HTMLScriptElement | null);

/**
 * The folder of the files loaded from `scriptUrl`: the script's own (`…/dist/pay-widget.iife.js` →
 * `…/dist/`) or, when that address names the package rather than a file, as CDNs allow
 * (`https://unpkg.com/pay-widget@1`), the package's `dist/`. Never beside a package:
 * `https://unpkg.com/pay-widget.yo.js` would be another npm package. Undefined without a usable address.
 */
export function filesFolder(scriptUrl: string | undefined): URL | undefined {
  const base = parsed(scriptUrl);
  if (!base) return undefined;
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('.js')) base.pathname = `${base.pathname.replace(/\/$/, '')}/dist/`;
  return new URL('.', base);
}

/** `data-files-url`, a folder (relative to the page), read as a folder even without its last `/`. */
const namedFolder = (url: string | undefined) => parsed(url?.replace(/\/?$/, '/'), document.baseURI);

/**
 * `url` read against `base`, or undefined when it is missing or no address (`URL.canParse` is too new for Safari 15).
 */
function parsed(url: string | undefined, base?: string): URL | undefined {
  try {
    return url ? new URL(url, base) : undefined;
  } catch {
    return undefined;
  }
}

/** This script's files' folder, or undefined when the page did not say and the script has no `src` (inlined). */
export const thisScriptsFolder: URL | undefined = script
  ? (namedFolder(script.dataset.filesUrl) ?? filesFolder(script.src))
  : undefined;

if (script && !thisScriptsFolder) console.error('pay-widget: an inline script needs data-files-url, its files’ folder');
