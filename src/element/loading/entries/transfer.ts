// Entry: the transfer screen, which a USSD payment never loads (../for-payment.ts loads it once a
// customer chooses a transfer, and before a transfer's request goes out): the template, its English
// strings and its countdown (countdown.ts), which a resumed transfer's status answer corrects
// (`orderAt`). Beside the script tag it is dist/pay-widget.transfer.js, whole in itself.
export { transferTemplate } from '../../templates/transfer.js';
export { enTransfer } from '../../messages/en-transfer.js';
export { Countdown, orderAt } from '../../countdown.js';
