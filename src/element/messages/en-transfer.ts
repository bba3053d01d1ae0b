// English strings of the transfer screen, in its own file (loading/entries/transfer.ts), which a USSD payment
// never loads: the element puts them under the loaded strings once that file has arrived, before a
// transfer's screen shows. Every other locale has these keys in its own file.

export const enTransfer = {
  bankName: 'Bank',
  transferTitle: 'Transfer to this account',
  transferSteps: 'From your bank app, send exactly the amount below to this account.',
  transferStepsNoAmount: 'From your bank app, send the amount you were asked to pay to this account.',
  copyAccountNumber: 'Copy account number',
  accountNumber: 'Account number',
  walletName: 'Account name',
  copyAmount: 'Copy amount',
  exactAmount: 'Transfer the exact amount, including kobo',
  accountForThisPayment: 'This account is for this payment only',
  validFor: 'Valid for {time}',
  minutesLeft: '{minutes} minutes left to make the transfer',
  oneMinuteLeft: '1 minute left to make the transfer',
  secondsLeft: '{seconds} seconds left to make the transfer',
  accountClosed: 'This account has closed',
  accountExpired:
    'Do not transfer to it. If you sent the money before it closed, do not pay again; otherwise get a new account.',
  newAccount: 'Get a new account',
  validUntil: 'Valid until {time}',
};

export type TransferMessages = typeof enTransfer;
