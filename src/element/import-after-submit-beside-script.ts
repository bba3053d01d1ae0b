// The script-tag build's `importAfterSubmit` (vite.config.ts puts it in place of
// `import-after-submit.ts`): the file beside the script, as the locale files are. A load tried
// again after a failure asks for a new address: a browser may keep a failed module import's answer
// for its address.
import type * as AfterSubmit from './after-submit.js';
import { importBesideScript } from './beside-script.js';

/** The file beside the script tag, e.g. `pay-widget.after-submit.js` beside `pay-widget.iife.js`. */
export const AFTER_SUBMIT_FILE = 'pay-widget.after-submit.js';

export function importAfterSubmit(attempt: number): Promise<typeof AfterSubmit> {
  return importBesideScript(AFTER_SUBMIT_FILE, attempt ? `?retry=${attempt}` : '');
}
