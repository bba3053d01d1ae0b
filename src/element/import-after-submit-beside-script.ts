// The script-tag build's `importAfterSubmit` (vite.config.ts puts it in place of
// `import-after-submit.ts`): the file beside the script, as the locale files are. A load tried
// again after a failure asks for a new address: a browser may keep a failed module import's answer
// for its address. A file the shop's server does not serve (a 404, its HTML page in place of the
// script: the script tag copied alone) is the shop's set-up, not the customer's connection: said
// once in the console for the merchant, and rejected with code `setup`.
import type * as AfterSubmit from './after-submit.js';
import { besideThisScript } from './beside-script.js';

/** The file beside the script tag, e.g. `pay-widget.after-submit.js` beside `pay-widget.iife.js`. */
export const AFTER_SUBMIT_FILE = 'pay-widget.after-submit.js';

/** Set once the console was told: the prefetch and each submit would tell it again. */
let told: string | undefined;

export function importAfterSubmit(attempt: number): Promise<typeof AfterSubmit> {
  const url = besideThisScript(AFTER_SUBMIT_FILE);
  return import(/* @vite-ignore */ url + (attempt ? `?retry=${attempt}` : '')).catch(async (error: { code?: string }) => {
    // Asked again, to tell a file the server does not have (4xx, or a page that is not a script) from no answer at all.
    const answer = await fetch(url).catch(() => undefined);
    if (answer && answer.status < 500 && !/script/.test(answer.headers.get('content-type')!)) {
      if (!told) console.error(`pay-widget: ${url} answered ${answer.status}: serve all of dist/`);
      told = error.code = 'setup';
    }
    throw error;
  });
}
