/**
 * Issue 26, "Readable at 320 px": the form, the USSD screen on a phone and on a computer, the error
 * and the last screens, in every language (screens-at-320.ts).
 */
import { screensAt320 } from './screens-at-320.js';

screensAt320('<pay-widget> on a 320 px screen', [
  'form-errors',
  'ussd-android',
  'ussd-computer',
  'error',
  'complete',
  'failed',
]);
