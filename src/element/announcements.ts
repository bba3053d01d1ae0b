// What the live region says when another screen shows: its title and what the customer needs from
// it, in the words of the screen.
import type { Messages } from './messages/index.js';
import type { Screens } from './payment-controller.js';
import type { Order } from '../contract/schemas.js';
import { failureText } from './templates/error.js';

/** A result as the live region says it: `Title: value, value`, leaving out what is unknown. */
const spoken = (title: string, ...values: string[]) => `${title}: ${values.filter(Boolean).join(', ')}`;

/**
 * For `PaymentController.render`; `charged` formats what the server charges ('' when it did not say);
 * `closed`, whether the transfer account shown has run out: then it is no longer read out (issue 36).
 */
export function announcements(
  m: Messages,
  charged: (order: Order | undefined) => string,
  closed: boolean,
): Screens<string> {
  return {
    form: (busy) => (busy ? m.submitting : ''),
    ussd: ({ instructions, order }) => spoken(m.ussdTitle, instructions.ussdDialCode, charged(order)),
    transfer: ({ instructions: { accountNumber, bankName }, order }) =>
      closed ? m.accountClosed : spoken(m.transferTitle, accountNumber, bankName, charged(order)),
    // A PENDING payment comes only with a review (flow.ts): the strings are the review's reason's, else the status's.
    complete: ({ status, review }) => m[`${review?.reason ?? (status as 'SUCCESS' | 'FAILED')}Title`],
    error: ({ failure }) => `${m.errorTitle}. ${failureText(m, failure)}`,
  };
}
