// English strings of the USSD and completion screens (what the live region and the copy buttons say of them included),
// in what runs after a submit so that the first file does not carry them: the element puts them under the loaded
// strings once that file has arrived, before any result screen shows. Every other locale has these keys in its own
// file.

export const enAfterSubmit = {
  amount: 'Amount',
  paymentReference: 'Reference',
  ussdTitle: 'Dial this code to pay',
  ussdSteps:
    'On the phone registered with your bank, dial the code below and follow the prompts to approve the payment.',
  dialNow: 'Dial the code',
  copyDialCode: 'Copy code',
  copyDone: 'Copied',
  copied: 'Copied to the clipboard',
  copyFailed: 'Could not copy; select the text and copy it yourself',
  waiting: 'Waiting for your payment…',
  notConfirmed: 'We have not seen your payment yet. If you paid, the merchant will confirm it.',
  payAnotherWay: 'Pay another way',
  SUCCESSTitle: 'Payment received',
  SUCCESSText: 'Thank you, your payment is confirmed.',
  FAILEDTitle: 'Payment failed',
  FAILEDText: 'The payment did not go through. If money left your account, contact the merchant.',
  startOver: 'Make another payment',
  sentMoney: 'I’ve sent the money',
  checking: 'Checking with your bank…',
  notReceived: 'Not received yet. It can take a few minutes; do not pay again.',
  checkFailed: 'We could not check just now. We will keep checking; do not pay again.',
  stillWaiting:
    'Still waiting? Do not pay again. If money has left your account, give the shop this payment reference: ' +
    '{reference}',
  copyByHand: 'Copy it yourself',
  pasteInPhone: 'Copy the code, then paste it in your Phone app',
  scanToDial: 'Scan the QR code with your phone’s camera to dial the code',
  includesFee: 'includes {fee} fee',
  'amount-mismatchTitle': 'Wrong amount received',
  'amount-mismatchText': 'We received {received} of {amount}.',
  'amount-mismatchUnknown': 'We received a payment of a different amount.',
  'after-expiryTitle': 'Your payment arrived late',
  'after-expiryText': 'Your payment arrived after the time to pay had run out.',
  reviewNext: 'Do not pay again. The shop has been told and will contact you; keep this reference: {reference}',
  share: 'Share the details',
  copyAll: 'Copy all',
  declined: 'Your bank declined the payment. Try another bank or another way to pay.',
  refused: 'The shop could not start this payment. If you already paid, do not pay again.',
  orderChanged: 'The order changed. Reload the page to pay the new amount.',
  duplicate: 'This payment was already started. Check your bank app before paying again.',
  rateLimited: 'Too many payment attempts. Wait a minute, then try again.',
  busy: 'The payment service is busy. Try again in a moment.',
};

export type AfterSubmitMessages = typeof enAfterSubmit;
