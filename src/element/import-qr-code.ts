// Imports the QR code's module (qr-code.ts) on demand: a chunk of its own in the npm build; in the
// script tag's second file, the file QR_CODE_FILE beside it (vite.config.ts maps the import there).
import type * as QrCode from './qr-code.js';

/** The QR code's file beside the script tag, e.g. `pay-widget.qr.js` beside `pay-widget.iife.js`. */
export const QR_CODE_FILE = 'pay-widget.qr.js';

export const importQrCode = (): Promise<typeof QrCode> => import('./qr-code.js');
