// Imports what runs after a submit as a chunk of its own (the npm build, and the tests' dev server).
// The script-tag build replaces this module with `import-after-submit-beside-script.ts` (see
// vite.config.ts).
import type * as AfterSubmit from './after-submit.js';

/** `attempt` counts the loads tried before; a bundler's chunk has one address, so it is not used here. */
export function importAfterSubmit(_attempt: number): Promise<typeof AfterSubmit> {
  return import('./after-submit.js');
}
