import type { AfterSubmitMessages } from './en-after-submit.js';
import type { TransferMessages } from './en-transfer.js';

/**
 * English strings of the form and the error screen. `{name}` placeholders are filled in by
 * `format()`. Every other locale, and the `messages` property, provide the same keys and those of
 * en-after-submit.ts and en-transfer.ts.
 */
export const en = {
  amountDue: 'Amount to pay',
  chooseType: 'How would you like to pay?',
  USSD: 'USSD',
  USSDHint: 'Dial a code on your phone',
  TRANSFER: 'Bank transfer',
  TRANSFERHint: 'Send money to an account',
  fullName: 'Full name',
  email: 'Email address',
  mobileNumber: 'Mobile number',
  bankCode: 'Your bank',
  bankSearch: 'Search banks',
  bankChoose: 'Choose your bank',
  noBankMatches: 'No bank matches “{query}”',
  bankWithoutUssd: '{bank} can’t be paid by USSD here',
  payByTransfer: 'Pay by bank transfer instead',
  pay: 'Pay {amount}',
  payNoAmount: 'Continue',
  fullNameRequired: 'Enter your full name',
  fullNameInvalid: 'Enter your full name, 2 to 100 characters',
  emailRequired: 'Enter your email address',
  emailInvalid: 'Enter an email address such as name@example.com',
  mobileNumberRequired: 'Enter your mobile number',
  mobileNumberInvalid: 'Enter a mobile number of 7 to 15 digits, such as 08012345678',
  bankCodeRequired: 'Choose your bank',
  bankCodeInvalid: 'Choose your bank from the list',
  fixFields: 'Some fields need correcting',
  submitting: 'Starting your payment…',
  errorTitle: 'The payment could not be started',
  'error-validation': 'Some details need correcting.',
  'error-network': 'We could not reach the payment service. Check your connection and try again.',
  'error-timeout': 'The payment service took too long to answer. Try again.',
  'error-http': 'The payment service could not handle the request.',
  'error-gateway': 'The payment provider could not start this payment.',
  'error-invalid-response': 'The payment service sent an answer we could not read.',
  'error-config': 'This payment form is not set up correctly. Please tell the merchant.',
  'error-setup': 'This payment form is not set up correctly. Please tell the shop.',
  retry: 'Try again',
  edit: 'Edit details',
};

/**
 * Every string: the form's and the result screens', built in, and those of what runs after a submit and of the transfer
 * screen.
 */
export type Messages = typeof en & AfterSubmitMessages & TransferMessages;
