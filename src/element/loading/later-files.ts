// The files the element loads after the form has shown, by name: what runs after a submit, the
// transfer screen, the QR code, what shows a kept attempt again after a reload, and each language
// besides English. Each is an entry of its own (entries/<name>.ts): an `import()` chunk in the npm
// build, `pay-widget.<name>.js` beside the script tag. load.ts loads them all.
import type { OnDemandLocale } from '../messages/locales.js';
import type * as AfterSubmit from './entries/after-submit.js';
import type * as Qr from './entries/qr.js';
import type * as Resume from './entries/resume.js';
import type * as Transfer from './entries/transfer.js';

/** What each file exports: the first file asks for nothing else (the type-check sees to it). */
export type LaterFiles = {
  'after-submit': typeof AfterSubmit;
  transfer: typeof Transfer;
  qr: typeof Qr;
  resume: typeof Resume;
} & Record<OnDemandLocale, { messages: unknown }>;

export type LaterFile = keyof LaterFiles;

/** Its name beside the script tag, e.g. `pay-widget.after-submit.js` beside `pay-widget.iife.js`. */
export const fileBesideScript = (name: LaterFile): string => `pay-widget.${name}.js`;
