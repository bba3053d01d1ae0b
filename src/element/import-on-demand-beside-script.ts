// The script-tag build's importers of the files loaded on demand (vite.config.ts puts this module in
// place of `import-on-demand.ts`): the files beside the script, as the locale files are. A load tried
// again after a failure asks for a new address: a browser may keep a failed module import's answer
// for its address. A file the shop's server does not serve (a 404, its HTML page in place of the
// script: the script tag copied alone) is the shop's set-up, not the customer's connection: said
// in the console for the merchant, once for each file, and rejected with code `setup`.
import type * as AfterSubmit from './after-submit.js';
import { besideThisScript, importBesideScript } from './beside-script.js';
import type * as TransferScreen from './transfer-screen.js';

/** The files beside the script tag, e.g. `pay-widget.after-submit.js` beside `pay-widget.iife.js`. */
export const AFTER_SUBMIT_FILE = 'pay-widget.after-submit.js';
export const TRANSFER_SCREEN_FILE = 'pay-widget.transfer.js';

/** The addresses the console was told of: the prefetch and each submit would tell it again. */
const told = new Set<string>();

function importBeside<T>(fileName: string, attempt: number): Promise<T> {
  return importBesideScript<T>(fileName, attempt ? `?retry=${attempt}` : '').catch(async (error: { code?: string }) => {
    // Asked again, to tell a file the server does not have (4xx, or a page that is not a script) from no answer at all.
    const url = besideThisScript(fileName);
    const answer = await fetch(url).catch(() => undefined);
    if (answer && answer.status < 500 && !/script/.test(answer.headers.get('content-type')!)) {
      if (!told.has(url)) console.error(`pay-widget: ${url} answered ${answer.status}: serve all of dist/`);
      told.add(url);
      error.code = 'setup';
    }
    throw error;
  });
}

export const importAfterSubmit = (attempt: number) => importBeside<typeof AfterSubmit>(AFTER_SUBMIT_FILE, attempt);
export const importTransferScreen = (attempt: number) =>
  importBeside<typeof TransferScreen>(TRANSFER_SCREEN_FILE, attempt);
