/**
 * Properties as frameworks set them: Vue's `:amount="5000"` and `:timeout="2000"` pass numbers,
 * `:payment-types="['TRANSFER']"` an array, and a bound value may be `null`.
 */
import { expect } from '@open-wc/testing';
import {
  fillTransfer,
  fillUssd,
  hang,
  json,
  part,
  radio,
  restoreAll,
  root,
  route,
  SESSION_URL,
  stubFetch,
  submitUntil,
  transferEnvelope,
  ussdEnvelope,
  widget,
} from './helpers.js';

/** A `<pay-widget>` whose properties are set the way Vue, React or Svelte set them, before its first render. */
async function boundWidget(properties: Record<string, unknown>) {
  const el = document.createElement('pay-widget');
  Object.assign(el, { sessionUrl: SESSION_URL, ...properties });
  document.body.append(el);
  await el.updateComplete;
  return el;
}

const typesOffered = (el: HTMLElement) =>
  [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name="paymentType"]')].map((input) => input.value);

describe('<pay-widget>', () => {
  afterEach(() => {
    restoreAll();
    document.querySelectorAll('pay-widget').forEach((el) => el.remove());
  });

  describe('properties set from frameworks', () => {
    it('takes a number for amount: shows it and sends it as the hint', async () => {
      const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await boundWidget({ amount: 5000, locale: 'en' });
      expect(root(el).querySelector('.amount')!.textContent).to.contain('5,000.00');
      expect(part(el, 'submit')!.textContent).to.contain('Pay');

      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      expect(JSON.parse(calls[0]!.body!).amount).to.equal('5000');
    });

    it('takes a number for timeout and abandons the request after it', async () => {
      stubFetch(route({ session: hang }));
      const el = await boundWidget({ timeout: 50 });
      await fillTransfer(el);
      const { detail } = await submitUntil(el, 'pay-error');
      expect(detail).to.include({ code: 'timeout', retryable: true });
    });

    it('takes a numeric string for timeout as a property too', async () => {
      stubFetch(route({ session: hang }));
      const el = await boundWidget({ timeout: '50' });
      await fillTransfer(el);
      expect((await submitUntil(el, 'pay-error')).detail.code).to.equal('timeout');
    });

    it('takes an array for paymentTypes, in any case, unknown names ignored', async () => {
      const el = await boundWidget({ paymentTypes: ['transfer'] });
      expect(typesOffered(el), 'one type: no choice to make').to.deep.equal([]);
      expect(root(el).querySelector('[name="bankCode"]'), 'a transfer needs no bank').to.equal(null);

      el.paymentTypes = ['TRANSFER', 'CARD', 'USSD'];
      await el.updateComplete;
      expect(typesOffered(el)).to.deep.equal(['USSD', 'TRANSFER']);
    });

    it('sends a number for paymentReference as text, and takes null for the prefilled fields', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await boundWidget({ paymentReference: 42, fullName: null, email: undefined, amount: null });
      expect(root(el).querySelector('.amount'), 'no amount, no crash').to.equal(null);
      radio(el, 'TRANSFER').click();
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      expect(JSON.parse(calls[0]!.body!)).to.include({ paymentReference: '42' });
    });

    it('still reads attributes as strings', async () => {
      const el = await widget({
        'session-url': SESSION_URL,
        amount: '1234.5',
        'payment-types': 'TRANSFER',
        timeout: '2000',
      });
      expect(el.amount).to.equal('1234.5');
      expect(el.timeout).to.equal(2000);
      expect(el.selectedType).to.equal('TRANSFER');
    });
  });
});
