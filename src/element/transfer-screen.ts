// The transfer screen, a file of its own that a USSD payment never loads: load-on-demand.ts loads it
// once a customer chooses a transfer, and before a transfer's request goes out: the template, its
// English strings and its countdown (countdown.ts), which a resumed transfer's status answer
// corrects (`orderAt`). What it shares with the other result screens (parts.ts) comes from what
// runs after a submit; in the script tag it is dist/pay-widget.transfer.js, which imports those
// from the second file beside it (vite.config.ts).
export { transferTemplate } from './templates/transfer.js';
export { enTransfer } from './messages/en-transfer.js';
export { Countdown, orderAt } from './countdown.js';
