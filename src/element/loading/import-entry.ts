// Imports a later file (later-files.ts) as a chunk of its own: the npm build, and the tests' dev
// server. Each `import()` names its module literally, so that bundlers (ours, then the merchant's)
// make each entry a chunk. The script-tag build replaces this module with
// import-entry-beside-script.ts (vite.config.ts, the plugin `pay-widget:files-beside-script`).
import type { LaterFile, LaterFiles } from './later-files.js';

const entries: { [name in LaterFile]: () => Promise<LaterFiles[name]> } = {
  'after-submit': () => import('./entries/after-submit.js'),
  transfer: () => import('./entries/transfer.js'),
  qr: () => import('./entries/qr.js'),
  resume: () => import('./entries/resume.js'),
  fr: () => import('./entries/fr.js'),
  ha: () => import('./entries/ha.js'),
  ig: () => import('./entries/ig.js'),
  pcm: () => import('./entries/pcm.js'),
  yo: () => import('./entries/yo.js'),
};

/** `attempt` counts the loads tried before; a bundler's chunk has one address, so it is not used here. */
export const importEntry = <N extends LaterFile>(name: N, _attempt: number): Promise<LaterFiles[N]> => entries[name]();

/** The address to check when a load fails: a bundler's chunks have none known here. */
export const addressOf = (_name: LaterFile, _attempt: number): string | undefined => undefined;
