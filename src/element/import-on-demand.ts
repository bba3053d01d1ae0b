// Imports the files loaded on demand (load-on-demand.ts) as chunks of their own: what runs after a
// submit, and the transfer screen (the npm build, and the tests' dev server). The script-tag build
// replaces this module with `import-on-demand-beside-script.ts` (see vite.config.ts).
import type * as AfterSubmit from './after-submit.js';
import type * as TransferScreen from './transfer-screen.js';

// `attempt` counts the loads tried before; a bundler's chunk has one address, so it is not used here.
export const importAfterSubmit = (_attempt: number): Promise<typeof AfterSubmit> => import('./after-submit.js');
export const importTransferScreen = (_attempt: number): Promise<typeof TransferScreen> =>
  import('./transfer-screen.js');
