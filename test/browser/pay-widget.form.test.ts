import { expect, waitUntil } from '@open-wc/testing';
import type { CustomerField } from '../../src/contract/schemas.js';
import {
  bankSearch,
  chooseBank,
  chooseType,
  clickSubmit,
  control,
  CUSTOMER,
  fieldError,
  fillCustomer,
  fillTransfer,
  fillUssd,
  focused,
  json,
  nextEvent,
  part,
  radio,
  restoreAll,
  root,
  route,
  SESSION_URL,
  stubFetch,
  submitUntil,
  text,
  transferEnvelope,
  typeInto,
  ussdEnvelope,
  widget,
  type PayWidget,
} from './helpers.js';

/** The options of the bank list, without the "Choose your bank" placeholder. */
const bankOptions = (el: PayWidget) =>
  [...control<HTMLSelectElement>(el, 'bankCode').options].filter((option) => option.value).map((option) => option.text);

/** Asserts that `field` shows `message`, and that its control points at it. */
function expectFieldError(el: PayWidget, field: CustomerField, message: string): void {
  expect(fieldError(el, field), `${field} error`).to.equal(message);
  const input = control(el, field);
  expect(input.getAttribute('aria-invalid'), `${field} aria-invalid`).to.equal('true');
  const describedBy = input.getAttribute('aria-describedby');
  expect(describedBy, `${field} aria-describedby`).to.equal(`${field}-error`);
  const described = root(el).getElementById(describedBy!)!;
  expect(described.textContent).to.equal(message);
  expect(described.getAttribute('part')).to.equal('error');
}

function expectNoFieldError(el: PayWidget, field: CustomerField): void {
  expect(fieldError(el, field), `${field} error`).to.equal(undefined);
  const input = control(el, field);
  expect(input.getAttribute('aria-invalid'), `${field} aria-invalid`).to.equal('false');
  expect(input.hasAttribute('aria-describedby'), `${field} aria-describedby`).to.equal(false);
}

const textFields = [
  {
    field: 'fullName',
    required: 'Enter your full name',
    invalidValue: 'A',
    invalid: 'Enter your full name, 2 to 100 characters',
    valid: 'Ada Obi',
  },
  {
    field: 'email',
    required: 'Enter your email address',
    invalidValue: 'ada@example',
    invalid: 'Enter an email address such as name@example.com',
    valid: 'ada@example.com',
  },
  {
    field: 'mobileNumber',
    required: 'Enter your mobile number',
    invalidValue: '0801-23',
    invalid: 'Enter a mobile number of 7 to 15 digits, such as 08012345678',
    valid: '+234 (801) 234 5678',
  },
] as const;

describe('<pay-widget>', () => {
  afterEach(restoreAll);

  describe('the form', () => {
    it('names its controls as the spec does, with autocomplete, type and inputmode', async () => {
      const el = await widget();
      expect(radio(el, 'USSD').checked, 'USSD is the default').to.equal(true);
      expect(radio(el, 'TRANSFER').checked).to.equal(false);
      const expected = {
        fullName: ['text', 'name', 'text', 'Full name'],
        email: ['email', 'email', 'email', 'Email address'],
        mobileNumber: ['tel', 'tel', 'tel', 'Mobile number'],
      } as const;
      for (const [name, [type, autocomplete, inputmode, label]] of Object.entries(expected)) {
        const input = control(el, name);
        expect([input.type, input.autocomplete, input.inputMode], name).to.deep.equal([type, autocomplete, inputmode]);
        expect(input.labels![0]!.textContent).to.equal(label);
      }
      expect(control<HTMLSelectElement>(el, 'bankCode').labels![0]!.textContent).to.equal('Your bank');
    });

    it('prefills the customer fields from full-name, email and mobile-number and sends them', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({
        'session-url': SESSION_URL,
        'payment-type': 'TRANSFER',
        'full-name': 'Chidi Okeke',
        email: 'chidi@example.com',
        'mobile-number': '08031234567',
      });
      expect(control(el, 'fullName').value).to.equal('Chidi Okeke');
      expect(control(el, 'email').value).to.equal('chidi@example.com');
      expect(control(el, 'mobileNumber').value).to.equal('08031234567');
      await submitUntil(el, 'pay-initiated');
      expect(JSON.parse(calls[0]!.body!)).to.deep.include({
        paymentType: 'TRANSFER',
        fullName: 'Chidi Okeke',
        email: 'chidi@example.com',
        mobileNumber: '08031234567',
      });
    });

    it('preselects payment-type="TRANSFER" and offers no bank list', async () => {
      const el = await widget({ 'session-url': SESSION_URL, 'payment-type': 'TRANSFER' });
      expect(radio(el, 'TRANSFER').checked).to.equal(true);
      expect(radio(el, 'USSD').checked).to.equal(false);
      expect(root(el).querySelector('[name="bankCode"]')).to.equal(null);
    });

    it('fires pay-type-change for each choice the customer makes, and not for the property', async () => {
      const el = await widget();
      const seen: string[] = [];
      el.addEventListener('pay-type-change', (event) => seen.push(event.detail.paymentType));
      await chooseType(el, 'TRANSFER');
      await chooseType(el, 'USSD');
      el.paymentType = 'TRANSFER';
      await el.updateComplete;
      expect(seen).to.deep.equal(['TRANSFER', 'USSD']);
      expect(radio(el, 'TRANSFER').checked, 'the property still selects').to.equal(true);
    });

    it('offers no radio group with payment-types="TRANSFER", and sends TRANSFER', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, 'payment-types': 'TRANSFER' });
      expect(root(el).querySelector('[name="paymentType"]')).to.equal(null);
      expect(root(el).querySelector('fieldset.types-group, legend')).to.equal(null);
      expect(root(el).querySelector('[name="bankCode"]')).to.equal(null);
      await fillCustomer(el);
      const { detail } = await submitUntil(el, 'pay-initiated');
      expect(detail.paymentType).to.equal('TRANSFER');
      expect(JSON.parse(calls[0]!.body!).paymentType).to.equal('TRANSFER');
    });

    it('offers only USSD with payment-types="USSD", bank list included', async () => {
      const el = await widget({ 'session-url': SESSION_URL, 'payment-types': 'ussd', 'payment-type': 'TRANSFER' });
      expect(root(el).querySelector('[name="paymentType"]')).to.equal(null);
      expect(el.selectedType).to.equal('USSD');
      expect(root(el).querySelector('[name="bankCode"]')).to.not.equal(null);
    });

    it('blocks submitting while disabled', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, 'payment-type': 'TRANSFER', disabled: true });
      await fillCustomer(el);
      let submits = 0;
      el.addEventListener('pay-submit', () => submits++);
      const submit = part<HTMLButtonElement>(el, 'submit')!;
      expect(submit.matches(':disabled')).to.equal(true);
      expect(control(el, 'fullName').matches(':disabled')).to.equal(true);
      submit.click();
      el.submit();
      await el.updateComplete;
      expect(calls).to.have.length(0);
      expect(submits).to.equal(0);
      expect(el.hasAttribute('disabled')).to.equal(true);

      el.disabled = false;
      await el.updateComplete;
      await submitUntil(el, 'pay-initiated');
      expect(calls).to.have.length(1);
    });
  });

  describe('the amount and the language', () => {
    it('formats the amount for its currency and the locale (en)', async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', currency: 'NGN', locale: 'en' });
      const amount = root(el).querySelector('.amount')!.textContent!;
      expect(amount).to.contain('5,000.00');
      expect(amount).to.match(/₦|NGN/);
      expect(part(el, 'submit')!.textContent!.trim()).to.equal(`Pay ${amount}`);
    });

    it('formats the amount the French way with locale="fr"', async () => {
      const el = await widget({
        'session-url': SESSION_URL,
        amount: '5000',
        currency: 'XOF',
        country: 'CI',
        locale: 'fr',
      });
      await waitUntil(() => root(el).querySelector('[lang="fr"]'), 'the French strings arrive');
      const amount = root(el).querySelector('.amount')!.textContent!;
      expect(amount).to.match(/^5\s000\sF\s?CFA$/);
    });

    it('formats the amount with a regional locale such as locale="en-GB"', async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '1234.5', currency: 'NGN', locale: 'en-GB' });
      expect(root(el).querySelector('.amount')!.textContent).to.contain('1,234.50');
    });

    it('shows "Continue" when there is no amount', async () => {
      const el = await widget();
      expect(root(el).querySelector('.amount')).to.equal(null);
      expect(part(el, 'submit')!.textContent!.trim()).to.equal('Continue');
    });

    it('speaks French with locale="fr", in labels, errors and results', async () => {
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', locale: 'fr' });
      // French loads on demand; the widget re-renders in it once it has arrived.
      await waitUntil(() => root(el).querySelector('[lang="fr"]'), 'the French strings arrive');
      expect(root(el).querySelector('legend')!.textContent).to.equal('Comment souhaitez-vous payer\u202f?');
      expect(control(el, 'fullName').labels![0]!.textContent).to.equal('Nom complet');
      expect(part(el, 'submit')!.textContent!.trim()).to.match(/^Payer 5\s000,00/);
      await typeInto(el, 'email', '');
      expect(fieldError(el, 'email')).to.equal('Saisissez votre adresse e-mail');
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      expect(root(el).querySelector('h2')!.textContent).to.equal('Composez ce code pour payer');
      expect(text(el)).to.contain('Copier le code');
    });

    it('uses the messages property over the built-in strings, key by key', async () => {
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      el.messages = { fullName: 'Name on your bank account', pay: 'Send {amount} now' };
      await el.updateComplete;
      expect(control(el, 'fullName').labels![0]!.textContent).to.equal('Name on your bank account');
      expect(part(el, 'submit')!.textContent!.trim()).to.match(/^Send .*5,000\.00 now$/);
      expect(control(el, 'email').labels![0]!.textContent, 'other strings unchanged').to.equal('Email address');
    });
  });

  describe('prefilled fields', () => {
    it('follow the page while the customer has not typed in them, and keep what the customer typed', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, 'full-name': 'Chidi Okeke', email: 'chidi@example.com' });
      await typeInto(el, 'email', 'ada@example.com');

      el.fullName = 'Ada Obi';
      el.email = 'someone.else@example.com';
      el.mobileNumber = '08012345678';
      await el.updateComplete;
      expect(control(el, 'fullName').value, 'untouched: follows the page').to.equal('Ada Obi');
      expect(control(el, 'email').value, 'typed: stays').to.equal('ada@example.com');
      expect(control(el, 'mobileNumber').value).to.equal('08012345678');

      await chooseType(el, 'TRANSFER');
      await submitUntil(el, 'pay-initiated');
      expect(JSON.parse(calls[0]!.body!)).to.include({
        fullName: 'Ada Obi',
        email: 'ada@example.com',
        mobileNumber: '08012345678',
      });
    });
  });

  describe('the bank list', () => {
    it("holds SeerBit's USSD banks under the names customers use, searchable by those names", async () => {
      const el = await widget();
      expect(bankOptions(el)).to.include.members(['Access Bank', 'GTBank', 'Zenith Bank', 'VFD MFB', 'Zenith Mobile']);
      const search = bankSearch(el)!;
      expect(search.getAttribute('aria-label')).to.equal('Search banks');
      const searchFor = async (query: string) => {
        search.value = query;
        search.dispatchEvent(new InputEvent('input', { bubbles: true }));
        await el.updateComplete;
        return bankOptions(el);
      };
      expect(await searchFor('zen')).to.deep.equal(['Zenith Bank', 'Zenith Mobile']);
      expect(await searchFor('bank of'), 'their legal names').to.deep.equal(['First Bank', 'Union Bank']);
      expect(await searchFor('G.T.B.')).to.deep.equal(['GTBank']);
      expect(await searchFor('FBN')).to.deep.equal(['First Bank']);
      expect(await searchFor('alat')).to.deep.equal(['Wema Bank (ALAT)']);
      expect(await searchFor('Stanbic Bank PLC')).to.deep.equal(['Stanbic IBTC']);
    });

    it('finds a bank the merchant added by its abbreviation', async () => {
      const el = await widget();
      el.banks = [...el.banks, { code: '033', name: 'United Bank for Africa' }];
      await el.updateComplete;
      const search = bankSearch(el)!;
      search.value = 'UBA';
      search.dispatchEvent(new InputEvent('input', { bubbles: true }));
      await el.updateComplete;
      expect(bankOptions(el)).to.deep.equal(['United Bank for Africa']);
    });

    it('lists only the banks the search names, taking back a chosen bank it no longer names, and says when nothing matches', async () => {
      const el = await widget();
      await chooseBank(el, '058');
      const search = bankSearch(el)!;
      search.value = 'xyz';
      search.dispatchEvent(new InputEvent('input', { bubbles: true }));
      await el.updateComplete;
      expect(bankOptions(el)).to.deep.equal([]);
      expect(control<HTMLSelectElement>(el, 'bankCode').value, 'no hidden choice (issue 36)').to.equal('');
      expect(text(el)).to.contain('No bank matches “xyz”');
    });

    it('is replaced by the banks property, without a search box for a short list', async () => {
      const el = await widget();
      el.banks = [
        { code: '999', name: 'Merchant Test Bank' },
        { code: '998', name: 'Other Test Bank' },
      ];
      await el.updateComplete;
      expect(bankOptions(el)).to.deep.equal(['Merchant Test Bank', 'Other Test Bank']);
      expect(bankSearch(el)).to.equal(null);
    });
  });

  describe('validation', () => {
    for (const { field, required, invalidValue, invalid, valid } of textFields) {
      it(`shows "${required}" when ${field} is left empty`, async () => {
        const el = await widget();
        expectNoFieldError(el, field);
        await typeInto(el, field, '   ');
        expectFieldError(el, field, required);
      });

      it(`shows "${invalid}" when ${field} is left as "${invalidValue}", and clears it once corrected`, async () => {
        const el = await widget();
        const input = control(el, field);
        input.value = invalidValue;
        input.dispatchEvent(new InputEvent('input', { bubbles: true }));
        await el.updateComplete;
        expectNoFieldError(el, field); // not while typing
        input.dispatchEvent(new FocusEvent('blur'));
        await el.updateComplete;
        expectFieldError(el, field, invalid);
        await typeInto(el, field, valid);
        expectNoFieldError(el, field);
      });
    }

    it('shows "Choose your bank" once a chosen bank is taken back, not on the blur of the untouched list', async () => {
      const el = await widget();
      control(el, 'bankCode').dispatchEvent(new FocusEvent('blur'));
      await el.updateComplete;
      expectNoFieldError(el, 'bankCode');
      await chooseBank(el, '044');
      expectNoFieldError(el, 'bankCode');
      await chooseBank(el, '');
      expectFieldError(el, 'bankCode', 'Choose your bank');
    });

    it('never shows an error on the blur of an empty field nobody typed in (tabbing through the form)', async () => {
      const el = await widget();
      for (const field of ['fullName', 'email', 'mobileNumber'] as const) {
        control(el, field).focus();
        control(el, field).dispatchEvent(new FocusEvent('blur'));
      }
      await el.updateComplete;
      for (const field of ['fullName', 'email', 'mobileNumber', 'bankCode'] as const) expectNoFieldError(el, field);
    });

    it('shows the error of a prefilled value at once, before anyone touches it', async () => {
      const el = await widget({ 'session-url': SESSION_URL, 'full-name': 'A', email: 'ada@example.com' });
      expectFieldError(el, 'fullName', 'Enter your full name, 2 to 100 characters');
      expectNoFieldError(el, 'email');
      expectNoFieldError(el, 'mobileNumber');
    });

    it('shows "Choose your bank from the list" for a bank code that is not a short digit string', async () => {
      const el = await widget();
      el.banks = [{ code: 'GTB', name: 'Bank with a bad code' }];
      await el.updateComplete;
      await chooseBank(el, 'GTB');
      expectFieldError(el, 'bankCode', 'Choose your bank from the list');
    });

    it('on a failed submit shows every error, focuses the first invalid field and sends nothing', async () => {
      const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      let submits = 0;
      el.addEventListener('pay-submit', () => submits++);

      const { detail } = await submitUntil(el, 'pay-error');
      expect(detail).to.deep.equal({
        paymentType: 'USSD',
        code: 'validation',
        message: 'Enter your full name',
        retryable: false,
      });
      expectFieldError(el, 'fullName', 'Enter your full name');
      expectFieldError(el, 'email', 'Enter your email address');
      expectFieldError(el, 'mobileNumber', 'Enter your mobile number');
      expectFieldError(el, 'bankCode', 'Choose your bank');
      expect(focused(el)).to.equal(control(el, 'fullName'));
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal('Some fields need correcting');
      expect(part(el, 'form'), 'still the form').to.not.equal(null);
      expect(calls).to.have.length(0);
      expect(submits).to.equal(0);
    });

    it('focuses the first invalid field in form order on submit', async () => {
      const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      await fillCustomer(el, { fullName: CUSTOMER.fullName, email: 'not-an-email', mobileNumber: '12' });
      await chooseBank(el, '058');
      const { detail } = await submitUntil(el, 'pay-error');
      expect(detail.message).to.equal('Enter an email address such as name@example.com');
      expect(focused(el)).to.equal(control(el, 'email'));
      expectNoFieldError(el, 'fullName');
      expectFieldError(el, 'mobileNumber', 'Enter a mobile number of 7 to 15 digits, such as 08012345678');
      expect(calls).to.have.length(0);
    });

    it('does not ask for a bank when paying by transfer', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget();
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      expect(calls).to.have.length(1);
    });

    it('sends the mobile number without separators', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget();
      await fillTransfer(el);
      await typeInto(el, 'mobileNumber', '+234 (801) 234-5678');
      clickSubmit(el);
      await nextEvent(el, 'pay-initiated');
      expect(JSON.parse(calls[0]!.body!).mobileNumber).to.equal('+2348012345678');
    });
  });
});
