// English strings of the result screens' newer lines (issue 18), in what runs after a submit so that
// the first file does not carry them: the element puts them under the loaded strings once that file
// has arrived, before any result screen shows. Every other locale has these keys in its own file.

export const enAfterSubmit = {
  exactAmount: 'Transfer the exact amount, including kobo',
  accountForThisPayment: 'This account is for this payment only',
  validFor: 'Valid for {time}',
  minutesLeft: '{minutes} minutes left to make the transfer',
  oneMinuteLeft: '1 minute left to make the transfer',
  secondsLeft: '{seconds} seconds left to make the transfer',
  accountExpired: 'This account has expired. Do not transfer to it; get a new one.',
  newAccount: 'Get a new account',
  sentMoney: 'I’ve sent the money',
  checking: 'Checking with your bank…',
  notReceived: 'Not received yet. It can take a few minutes; do not pay again.',
  checkFailed: 'We could not check just now. We will keep checking; do not pay again.',
  stillWaiting: 'Still waiting? Do not pay again. If money has left your account, give the shop this payment reference: {reference}',
  pasteInPhone: 'Copy the code, then paste it in your Phone app',
  includesFee: 'includes {fee} fee',
};

export type AfterSubmitMessages = typeof enAfterSubmit;
