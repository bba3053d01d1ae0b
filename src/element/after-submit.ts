// What runs after a submit, loaded apart from the form so that what a page loads first only draws
// and checks it: the client that talks to `session-url` (with the envelope reader), the status
// poller, the copy buttons' controller, the QR code's loader (a computer's way to dial), the USSD
// and completion screens with their clock (wait-controller.ts) and their newer English strings, and
// what keeps an attempt and resumes it after a reload (resume.ts). The npm build makes it a chunk
// (`import()`); the script tag fetches it from beside itself (see load-on-demand.ts). The error
// screen stays with the form: it is what shows when this file cannot be loaded. The transfer screen
// is a file of its own (transfer-screen.ts), which takes the parts it shares from here.
export { initiatePayment, PayFailureError, postSession } from './client.js';
export { enAfterSubmit } from './messages/en-after-submit.js';
export { CopyController } from './copy-controller.js';
export { pollStatus } from './status-poller.js';
export { QrController } from './qr-controller.js';
export { completeTemplate } from './templates/complete.js';
export { ussdTemplate } from './templates/ussd.js';
export { WaitController } from './wait-controller.js';
export { screensToWarmUp } from './warm-up.js';
export { keepAttempt } from './kept-attempt.js';
export { resumeKept } from './resume.js';
export { copyableValue, details, feeNote, shareButton, waiting } from './templates/parts.js';
