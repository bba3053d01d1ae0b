// What the result screens are given (ResultView), with the controllers they need, made with the first
// result screen from what runs after a submit: the copy buttons' state, the screens' clock and the QR
// code. A copy is said in the live region and, when the clipboard took it, fires `pay-copy`; a new
// transfer account (`renew`) keeps the details typed.
import type { ReactiveControllerHost } from 'lit';
import type { Bank } from './banks.js';
import type { CopyController } from './copy-controller.js';
import type { FormController } from './form-controller.js';
import { emit } from './events.js';
import { paymentReferenceOf } from './flow.js';
import { afterSubmit, transferScreen } from './loading/for-payment.js';
import { load } from './loading/load.js';
import type { LocaleController } from './locale-controller.js';
import type { PaymentController } from './payment-controller.js';
import type { ScreenChangeController } from './screen-change-controller.js';
import type { ResultView } from './templates/parts.js';
import type { WaitController } from './wait-controller.js';
import type { PaymentType } from '../contract/rules.js';

/** The element, as its result screens use it. */
export type ResultHost = ReactiveControllerHost &
  HTMLElement & {
    readonly banks: readonly Bank[];
    readonly selectedType: PaymentType;
    paymentType: string;
    reset(): void;
  };

/** What the element keeps of its result screens: their clock, their copy buttons' state, and their view. */
export type ResultScreens = {
  /** The result screens' clock: how long they have waited, and the transfer account's countdown. */
  wait: WaitController;
  copies: CopyController;
  view: () => ResultView;
};

/** Made with the first result screen, from the element, its controllers and how it writes what the server charges. */
export function resultScreens(
  host: ResultHost,
  payment: PaymentController,
  localization: LocaleController,
  form: FormController,
  screenChange: ScreenChangeController,
  charged: ResultView['charged'],
): ResultScreens {
  const announce = (text: string) => void screenChange.announce(text);
  const flow = afterSubmit()!;
  const copies = new flow.CopyController(host);
  const wait = new flow.WaitController(host, payment, localization, announce, transferScreen);
  const qr = new flow.QrController(host, () => load('qr'));

  async function copy(field: string, value: string): Promise<void> {
    const { state } = payment;
    const copied = await copies.copy(field, value);
    announce(localization.messages[copied ? 'copied' : 'copyFailed']);
    if (!copied) return;
    const paymentType = 'request' in state ? state.request.paymentType : host.selectedType;
    emit(host, 'pay-copy', { paymentType, paymentReference: paymentReferenceOf(state), field, value });
  }

  return {
    wait,
    copies,
    view: () => ({
      messages: localization.messages,
      charged,
      status: payment.polling ? 'waiting' : payment.asksStatus ? 'unconfirmed' : undefined,
      banks: host.banks,
      copy,
      poll: payment.poll,
      reset: () => host.reset(),
      announce,
      copies: copies.results,
      wait,
      qrCode: (text) => qr.image(text),
      renew: () => {
        form.reset();
        host.paymentType = 'TRANSFER';
        payment.renew();
      },
    }),
  };
}
