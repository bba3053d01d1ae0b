// The result screens as the form's idle time prepares them (result-warm-up.ts): the USSD screen and,
// once its file has loaded, the transfer screen, with every part they may show (the fee, the
// countdown, the waiting line, a copy button), for a made-up payment that is never shown.
import type { TemplateResult } from 'lit';
import type { StateOf } from './flow.js';
import { enAfterSubmit } from './messages/en-after-submit.js';
import type { ResultView } from './templates/parts.js';
import { ussdTemplate } from './templates/ussd.js';
import type { enTransfer } from './messages/en-transfer.js';
import type { transferTemplate } from './templates/transfer.js';

/** The transfer screen's file (loading/entries/transfer.ts), once it has loaded. */
type TransferScreen = { transferTemplate: typeof transferTemplate; enTransfer: typeof enTransfer };

const order = { paymentReference: '0', amount: '2', currency: 'NGN', fee: '1' };

export function screensToWarmUp(view: ResultView, transfer: TransferScreen | undefined): TemplateResult[] {
  // The element takes these English strings in at its next update; this may come before it.
  const messages = { ...enAfterSubmit, ...transfer?.enTransfer, ...view.messages };
  const shown: ResultView = { ...view, messages, status: 'waiting', wait: { remainingMs: 1, waitedLong: false } };
  const instructions = { paymentReference: '0', ussdDialCode: '*0#', accountNumber: '0', walletName: '-' };
  const state = { request: { paymentType: 'USSD' }, instructions, order } as StateOf<'ussd'> & StateOf<'transfer'>;
  return transfer
    ? [ussdTemplate(shown, state), transfer.transferTemplate(shown, state)]
    : [ussdTemplate(shown, state)];
}
