// What the files beside the script tag take from the first file instead of carrying copies of their
// own: Lit's `html` and `nothing` (so one Lit renders every template, through its public API only)
// and the messages' `format`. vite.config.ts maps their imports of `lit` and of messages/index.ts
// here; the first file's loader (import-entry-beside-script.ts) hands these over as each file
// arrives, before anything in it runs. Each file beside the script exports `receiveShared`.
import type * as Lit from 'lit';
import type * as MessagesModule from '../messages/index.js';

export type { Messages } from '../messages/index.js';

export let html: typeof Lit.html;
export let nothing: typeof Lit.nothing;
export let format: typeof MessagesModule.format;

export type Shared = { html: typeof html; nothing: typeof nothing; format: typeof format };

export function receiveShared(shared: Shared): void {
  ({ html, nothing, format } = shared);
}
