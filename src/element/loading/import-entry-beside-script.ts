// The script-tag build's importer of a later file (vite.config.ts puts this module in place of
// import-entry.ts): the ES module `pay-widget.<name>.js` in the script's files' folder
// (script-address.ts). A load tried again after a failure asks for a new address: a browser may keep a
// failed module import's answer for its address. Each file gets what the first file shares with it
// (from-first-file.ts: its Lit, and `format`) before anything in it runs.
import { html, nothing } from 'lit';
import { format } from '../messages/index.js';
import { fileBesideScript, type LaterFile, type LaterFiles } from './later-files.js';
import type { receiveShared } from './from-first-file.js';
import { thisScriptsFolder } from './script-address.js';

/**
 * Where a later file is asked for at its `attempt`-th load (`?retry=2` after two failures), or undefined
 * when the script has no address and the page gave none.
 */
export const addressOf = (name: LaterFile, attempt: number): string | undefined =>
  thisScriptsFolder && new URL(fileBesideScript(name) + (attempt ? `?retry=${attempt}` : ''), thisScriptsFolder).href;

export async function importEntry<N extends LaterFile>(name: N, attempt: number): Promise<LaterFiles[N]> {
  const url = addressOf(name, attempt);
  // The console has said so (script-address.ts); trying again cannot help.
  if (!url) throw Object.assign(new Error('no address'), { code: 'setup' });
  const module = await import(/* @vite-ignore */ url);
  (module.receiveShared as typeof receiveShared)({ html, nothing, format });
  return module;
}
