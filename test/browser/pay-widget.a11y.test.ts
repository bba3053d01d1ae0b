import { expect } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import {
  bankSearch,
  button,
  clickSubmit,
  control,
  deferred,
  errorBody,
  fillTransfer,
  fillUssd,
  focused,
  heading,
  json,
  nextEvent,
  part,
  radio,
  restoreAll,
  root,
  route,
  SESSION_URL,
  STATUS_URL,
  stubFetch,
  submitUntil,
  transferEnvelope,
  USSD_PAYMENTS,
  TRANSFER_PAYMENTS,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

/** axe finds nothing, and there is exactly one live region. */
async function expectAccessible(el: PayWidget): Promise<void> {
  await expect(el).to.be.accessible();
  const regions = root(el).querySelectorAll('[role="status"], [aria-live]');
  expect(regions, 'one live region').to.have.length(1);
}

const press = (key: string) => sendKeys({ press: key });
const type = (text: string) => sendKeys({ type: text });

describe('<pay-widget>', () => {
  afterEach(restoreAll);

  describe('is accessible', () => {
    it('in the form, for both payment types', async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      expect(radio(el, 'USSD').closest('fieldset')!.querySelector('legend')!.textContent).to.equal(
        'How would you like to pay?',
      );
      await expectAccessible(el);
      radio(el, 'TRANSFER').click();
      await el.updateComplete;
      await expectAccessible(el);
    });

    it('in the form showing errors', async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await submitUntil(el, 'pay-error');
      expect(root(el).querySelectorAll('[aria-invalid="true"]')).to.have.length(4);
      await expectAccessible(el);
    });

    it('while submitting (progress)', async () => {
      const answer = deferred<Response>();
      stubFetch(route({ session: () => answer.promise }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillUssd(el);
      clickSubmit(el);
      await el.updateComplete;
      expect(part(el, 'form')!.getAttribute('aria-busy')).to.equal('true');
      await expectAccessible(el);
      const initiated = nextEvent(el, 'pay-initiated');
      answer.resolve(json(ussdEnvelope()));
      await initiated;
    });

    it('in the USSD result, waiting for the payment', async () => {
      stubFetch(route({ session: () => json(ussdEnvelope()), status: () => json({ status: 'PENDING' }) }));
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, amount: '5000' });
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      expect(part(el, 'dial-code')).to.not.equal(null);
      expect(part(el, 'status')).to.not.equal(null);
      await expectAccessible(el);
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal(
        `Dial this code to pay: ${USSD_PAYMENTS.ussdDailCode}, ₦7,250.00`,
      );
    });

    it('in the transfer result', async () => {
      stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      expect(part(el, 'account-number')).to.not.equal(null);
      await expectAccessible(el);
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal(
        `Transfer to this account: ${TRANSFER_PAYMENTS.accountNumber}, ${TRANSFER_PAYMENTS.bankName}, ₦7,250.00`,
      );
    });

    it('in the error screen, with field messages', async () => {
      stubFetch(route({ session: () => json(errorBody('validation', 'Refused', { email: 'Blocked address' }), 422) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      expect(root(el).querySelector('li')).to.not.equal(null);
      await expectAccessible(el);
    });

    it('in the error screen, with a retry', async () => {
      stubFetch(route({ session: () => Promise.reject(new TypeError('Failed to fetch')) }));
      const el = await widget({ 'session-url': SESSION_URL });
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      expect(button(el, 'Try again')).to.not.equal(undefined);
      await expectAccessible(el);
    });

    it('in the complete screen', async function () {
      this.timeout(6_000);
      stubFetch(route({ session: () => json(transferEnvelope()), status: () => json({ status: 'SUCCESS' }) }));
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, amount: '5000' });
      await fillTransfer(el);
      await submitUntil(el, 'pay-complete');
      expect(heading(el)!.textContent).to.equal('Payment received');
      expect(focused(el)).to.equal(heading(el));
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal('Payment received');
      await expectAccessible(el);
    });

    it('in the dark colour scheme, form and result', async () => {
      await emulateMedia({ colorScheme: 'dark' });
      try {
        stubFetch(route({ session: () => json(ussdEnvelope()) }));
        const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
        await submitUntil(el, 'pay-error'); // the form with its error colours
        await expectAccessible(el);
        await fillUssd(el);
        await submitUntil(el, 'pay-initiated');
        await expectAccessible(el);
      } finally {
        await emulateMedia({ colorScheme: 'light' });
      }
    });
  });

  describe('by keyboard alone', () => {
    it('goes from the choice to the transfer result: one tab stop for the radios, arrows switch, Enter submits', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      const types: string[] = [];
      el.addEventListener('pay-type-change', (event) => types.push(event.detail.paymentType));

      await press('Tab');
      expect(focused(el), 'Tab lands on the checked radio').to.equal(radio(el, 'USSD'));
      await press('ArrowRight');
      await el.updateComplete;
      expect(radio(el, 'TRANSFER').checked).to.equal(true);
      expect(focused(el)).to.equal(radio(el, 'TRANSFER'));
      await press('ArrowDown');
      await el.updateComplete;
      expect(radio(el, 'USSD').checked, 'arrows wrap around the group').to.equal(true);
      await press('ArrowUp');
      await el.updateComplete;
      expect(types).to.deep.equal(['TRANSFER', 'USSD', 'TRANSFER']);

      await press('Tab');
      expect(focused(el), 'the radio group is one tab stop').to.equal(control(el, 'fullName'));
      await type('Ada Obi');
      await press('Tab');
      expect(focused(el)).to.equal(control(el, 'email'));
      await type('ada@example.com');
      await press('Tab');
      expect(focused(el)).to.equal(control(el, 'mobileNumber'));
      await type('08012345678');

      const initiated = nextEvent(el, 'pay-initiated');
      await press('Enter');
      await initiated;
      await el.updateComplete;

      expect(calls).to.have.length(1);
      expect(JSON.parse(calls[0]!.body!)).to.deep.include({
        paymentType: 'TRANSFER',
        fullName: 'Ada Obi',
        email: 'ada@example.com',
        mobileNumber: '08012345678',
      });
      expect(focused(el), 'focus on the result heading').to.equal(heading(el));
      expect(heading(el)!.textContent).to.equal('Transfer to this account');

      await press('Tab');
      expect(focused(el), 'the copy button is next').to.equal(part(el, 'copy-button'));
    });

    it('goes from the choice to the USSD result, searching and picking a bank', async () => {
      const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });

      await press('Tab');
      expect(focused(el)).to.equal(radio(el, 'USSD'));
      for (const text of ['Ada Obi', 'ada@example.com', '0801 234 5678']) {
        await press('Tab');
        await type(text);
      }
      await press('Tab');
      expect(focused(el), 'then the bank search').to.equal(bankSearch(el));
      await type('zenith');
      await el.updateComplete;
      await press('Tab');
      expect(focused(el), 'then the bank list').to.equal(control(el, 'bankCode'));
      await press('ArrowDown');
      await el.updateComplete;
      expect(control<HTMLSelectElement>(el, 'bankCode').value).to.equal('057');
      await press('Tab');
      expect(focused(el), 'then pay').to.equal(part(el, 'submit'));

      const initiated = nextEvent(el, 'pay-initiated');
      await press('Enter');
      await initiated;
      await el.updateComplete;
      expect(JSON.parse(calls[0]!.body!)).to.deep.include({ paymentType: 'USSD', bankCode: '057', mobileNumber: '08012345678' });
      expect(focused(el)).to.equal(heading(el));
      expect(heading(el)!.textContent).to.equal('Dial this code to pay');
    });

    it('moves focus to the first invalid field when Enter submits an incomplete form', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, 'payment-type': 'TRANSFER' });
      await press('Tab');
      await press('Tab');
      await type('Ada Obi');
      await press('Tab');
      await type('ada@example.com');
      await press('Tab');
      await press('Enter');
      await el.updateComplete;
      expect(focused(el)).to.equal(control(el, 'mobileNumber'));
      expect(calls).to.have.length(0);
    });

    it('retries from the error screen with the keyboard, focus on each new heading', async () => {
      const calls = stubFetch(
        route({ session: (_, index) => (index === 0 ? json(errorBody('busy', 'Try again shortly'), 503) : json(transferEnvelope())) }),
      );
      const el = await widget({ 'session-url': SESSION_URL });
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      expect(focused(el)).to.equal(heading(el));
      await press('Tab');
      expect(focused(el)).to.equal(button(el, 'Try again'));
      const initiated = nextEvent(el, 'pay-initiated');
      await press('Enter');
      await initiated;
      await el.updateComplete;
      expect(calls).to.have.length(2);
      expect(focused(el)).to.equal(heading(el));
    });
  });
});
