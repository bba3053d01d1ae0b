// Entry: what runs after a submit, loaded apart from the form so that what a page loads first only
// draws and checks it: the client that talks to `session-url` (with the envelope reader), the status
// poller, the copy buttons' controller, the QR code's controller (a computer's way to dial), the USSD
// and completion screens with their clock (wait-controller.ts) and their newer English strings, and
// what keeps an attempt for a reload (kept-attempt.ts; what shows it again is entries/resume.ts,
// loaded only after a reload that kept one). The error screen stays with the
// form: it is what shows when this file cannot be loaded. Loaded by ../load.ts (an npm chunk, or
// dist/pay-widget.after-submit.js beside the script tag).
export { initiatePayment, PayFailureError, postSession } from '../../client.js';
export { enAfterSubmit } from '../../messages/en-after-submit.js';
export { CopyController } from '../../copy-controller.js';
export { pollStatus } from '../../status-poller.js';
export { QrController } from '../../qr-controller.js';
export { completeTemplate } from '../../templates/complete.js';
export { ussdTemplate } from '../../templates/ussd.js';
export { WaitController } from '../../wait-controller.js';
export { screensToWarmUp } from '../../made-up-screens.js';
export { keepAttempt } from '../../kept-attempt.js';
