/**
 * Issue 26, what the customer is told: a payment of another amount (or one after the time to pay ran
 * out) said plainly in their language; a USSD bank search that finds nothing offers a transfer; the
 * instructions shared with whoever pays; a server error in the widget's own words, in its language.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { formatAmount } from '../../src/element/format-amount.js';
import { loadTranslation } from '../../src/element/translations.js';
import {
  bankSearch,
  button,
  chooseType,
  clickSubmit,
  control,
  CUSTOMER,
  errorBody,
  fillCustomer,
  fillTransfer,
  fillUssd,
  focused,
  heading,
  holdTimers,
  json,
  nextEvent,
  part,
  radio,
  restoreAll,
  root,
  route,
  SESSION_URL,
  STATUS_URL,
  stubClipboard,
  stubFetch,
  submitUntil,
  text,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  orderFor,
  USSD_PAYMENTS,
  ussdEnvelope,
  widget,
  type FetchCall,
  type PayWidget,
} from './helpers.js';

const statusCalls = (calls: FetchCall[]) => calls.filter((call) => call.url.pathname === STATUS_URL);
const POLL_MS = 2_000;

/** Per language: the heading, and the sentence with what was received of what was due. */
const MISMATCH: Record<string, { title: string; said: (received: string, due: string) => string; english?: false }> = {
  en: { title: 'Wrong amount received', said: (r, d) => `We received ${r} of ${d}.` },
  fr: { title: 'Le montant reçu est différent', said: (r, d) => `Nous avons reçu ${r} sur ${d}.` },
  pcm: { title: 'Di money wey enter no be di correct amount', said: (r, d) => `We receive ${r} out of ${d}.` },
  ha: { title: 'Adadin kuɗin da aka karɓa ya bambanta', said: (r, d) => `Mun karɓi ${r} daga cikin ${d}.` },
  yo: { title: 'Iye owó tí a gbà yàtọ̀', said: (r, d) => `A gba ${r} nínú ${d}.` },
  ig: { title: 'Ego anatara dị iche', said: (r, d) => `Anyị natara ${r} n’ime ${d}.` },
};

/** A transfer whose status-url answers `status`; resolves once the answer shows, with pay-complete's detail. */
async function transferAnswered(attributes: Record<string, string>, status: Record<string, unknown>) {
  const timers = holdTimers();
  const calls = stubFetch(
    route({
      session: () => json(transferEnvelope(TRANSFER_PAYMENTS, orderFor(TRANSFER_PAYMENTS, { amount: '10000' }))),
      status: () => json(status),
    }),
  );
  const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, ...attributes });
  await fillTransfer(el);
  const initiated = nextEvent(el, 'pay-initiated');
  const completed = nextEvent(el, 'pay-complete');
  clickSubmit(el);
  await initiated;
  await waitUntil(() => timers.pending(POLL_MS) === 1, 'the first look-up is scheduled');
  timers.fire();
  const { detail } = await completed;
  await el.updateComplete;
  return { el, detail, calls, timers };
}

describe('<pay-widget>', () => {
  before(() => Promise.all(['fr', 'pcm', 'ha', 'yo', 'ig'].map((locale) => loadTranslation(locale))));
  afterEach(() => {
    restoreAll();
    delete (navigator as { share?: unknown }).share;
  });

  describe('a payment of another amount', () => {
    for (const [locale, expected] of Object.entries(MISMATCH)) {
      it(`says in ${locale} what was received of what was due, not to pay again, and the reference to keep`, async () => {
        const { el, detail, calls, timers } = await transferAnswered(
          { locale },
          { status: 'PENDING', amount: '10000.00', currency: 'NGN', reason: 'amount-mismatch', amountReceived: '9500' },
        );
        const money = (amount: string) => formatAmount(amount, 'NGN', locale, 'NG');
        expect(heading(el)!.textContent).to.equal(expected.title);
        expect(text(el)).to.contain(expected.said(money('9500'), money('10000')).replace(/\s+/g, ' '));
        expect(root(el).querySelector('.note')!.textContent, 'the reference to keep').to.contain(
          TRANSFER_PAYMENTS.paymentReference,
        );
        if (locale !== 'en') expect(text(el), 'no English').not.to.match(/We received|has been told|Payment received/);
        expect(root(el).querySelector('[role="status"]')!.textContent, 'announced').to.equal(expected.title);
        expect(focused(el)).to.equal(heading(el));
        expect(detail).to.deep.equal({
          paymentType: 'TRANSFER',
          paymentReference: TRANSFER_PAYMENTS.paymentReference,
          amount: '10000',
          currency: 'NGN',
          status: 'PENDING',
          message: undefined,
          reason: 'amount-mismatch',
          amountReceived: '9500',
        });
        expect(statusCalls(calls), 'asked once').to.have.length(1);
        expect(timers.pending(), 'and no more').to.equal(0);
        await expect(el).to.be.accessible();
      });
    }

    it('says a payment of another amount without a figure when the server gave none, and never shows the server’s English', async () => {
      const { el } = await transferAnswered(
        { locale: 'yo' },
        { status: 'PENDING', reason: 'amount-mismatch', message: 'Partial payment received' },
      );
      expect(text(el)).to.contain('A gba owó kan, ṣùgbọ́n iye rẹ̀ yàtọ̀.');
      expect(text(el)).not.to.contain('Partial payment received');
    });

    it('says a payment after the time to pay ran out was received late', async () => {
      const { el, detail } = await transferAnswered({}, { status: 'SUCCESS', reason: 'after-expiry' });
      expect(heading(el)!.textContent).to.equal('Your payment arrived late');
      expect(text(el)).to.contain('Your payment arrived after the time to pay had run out.');
      expect(text(el)).to.contain(
        'Do not pay again. The shop has been told and will contact you; keep this reference:',
      );
      expect(detail.status).to.equal('SUCCESS');
      expect(detail.reason).to.equal('after-expiry');
      await expect(el).to.be.accessible();
    });

    it('ignores a reason it does not know: still waiting', async () => {
      const timers = holdTimers();
      const calls = stubFetch(
        route({
          session: () => json(transferEnvelope()),
          status: () => json({ status: 'PENDING', reason: 'merchant-own' }),
        }),
      );
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL });
      await fillTransfer(el);
      clickSubmit(el);
      await waitUntil(() => timers.pending(POLL_MS) === 1, 'the first look-up is scheduled');
      timers.fire();
      await waitUntil(
        () => statusCalls(calls).length === 1 && timers.pending(POLL_MS) === 1,
        'the next look-up is scheduled',
      );
      expect(part(el, 'account-number')).to.not.equal(null);
    });
  });

  describe('a USSD bank search', () => {
    for (const [query, bank] of [
      ['UBA', 'UBA'],
      ['Opay', 'OPay'],
      ['Kuda', 'Kuda'],
      ['Moniepoint', 'Moniepoint'],
    ] as const) {
      it(`that finds nothing ("${query}") says the bank has no USSD here and offers to pay by bank transfer instead, keeping what was typed`, async () => {
        const el = await widget();
        await chooseType(el, 'USSD');
        await fillCustomer(el);
        const search = bankSearch(el)!;
        search.value = query;
        search.dispatchEvent(new InputEvent('input', { bubbles: true }));
        await el.updateComplete;
        expect(text(el)).to.contain(`${bank} can’t be paid by USSD here`);
        await expect(el).to.be.accessible();

        const changed = nextEvent(el, 'pay-type-change');
        button(el, 'Pay by bank transfer instead')!.click();
        expect((await changed).detail).to.deep.equal({ paymentType: 'TRANSFER' });
        await el.updateComplete;
        expect(radio(el, 'TRANSFER').checked).to.equal(true);
        expect(root(el).querySelector('[name="bankCode"]'), 'no bank to choose').to.equal(null);
        expect(control(el, 'fullName').value).to.equal(CUSTOMER.fullName);
        expect(control(el, 'email').value).to.equal(CUSTOMER.email);
        expect(control(el, 'mobileNumber').value).to.equal(CUSTOMER.mobileNumber);
        expect(focused(el), 'the focus lands on the choice made').to.equal(radio(el, 'TRANSFER'));
        await expect(el).to.be.accessible();
      });
    }

    it('offers no transfer when the page offers only USSD', async () => {
      const el = await widget({ 'session-url': SESSION_URL, 'payment-types': 'USSD' });
      const search = bankSearch(el)!;
      search.value = 'Kuda';
      search.dispatchEvent(new InputEvent('input', { bubbles: true }));
      await el.updateComplete;
      expect(text(el)).to.contain('Kuda can’t be paid by USSD here');
      expect(button(el, 'Pay by bank transfer instead')).to.equal(undefined);
    });

    it('that leaves one bank chooses it, and the payment goes to that bank', async () => {
      const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      await chooseType(el, 'USSD');
      await fillCustomer(el);
      const search = bankSearch(el)!;
      const searchFor = async (query: string) => {
        search.value = query;
        search.dispatchEvent(new InputEvent('input', { bubbles: true }));
        await el.updateComplete;
        return control<HTMLSelectElement>(el, 'bankCode').value;
      };
      expect(await searchFor('zen'), 'two banks: none chosen').to.equal('');
      expect(await searchFor('zenith mob')).to.equal('322');
      expect(await searchFor('gtb')).to.equal('058');
      await submitUntil(el, 'pay-initiated');
      expect(JSON.parse(calls[0]!.body!).bankCode).to.equal('058');
    });
  });

  describe('sharing the instructions', () => {
    const expiresAt = new Date(Date.now() + 30 * 60_000).toISOString();
    const validUntil = `${String(new Date(expiresAt).getHours()).padStart(2, '0')}:${String(new Date(expiresAt).getMinutes()).padStart(2, '0')}`;
    const TRANSFER_TEXT = [
      'Transfer to this account',
      'Account number: 9900112233',
      'Bank: Providus Bank',
      'Account name: Acme Stores / Ada Obi',
      'Amount: ₦7,250.00',
      `Valid until ${validUntil}`,
      'Reference: ORD-1002',
    ].join('\n');

    async function transferShown(): Promise<PayWidget> {
      stubFetch(
        route({
          session: () => json(transferEnvelope(TRANSFER_PAYMENTS, orderFor(TRANSFER_PAYMENTS, { expiresAt } as never))),
        }),
      );
      const el = await widget();
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      return el;
    }

    it('opens the share sheet (Web Share API) with the account, bank, account name, amount, validity and reference', async () => {
      const shared: ShareData[] = [];
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: async (data: ShareData) => void shared.push(data),
      });
      const el = await transferShown();
      expect(button(el, 'Copy all')).to.equal(undefined);
      button(el, 'Share the details')!.click();
      expect(shared).to.deep.equal([{ text: TRANSFER_TEXT }]);
      await expect(el).to.be.accessible();
    });

    it('offers no sharing of an account that has expired', async () => {
      const expired = new Date(Date.now() - 1_000).toISOString();
      stubFetch(
        route({
          session: () =>
            json(transferEnvelope(TRANSFER_PAYMENTS, orderFor(TRANSFER_PAYMENTS, { expiresAt: expired } as never))),
        }),
      );
      const el = await widget();
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      await el.updateComplete;
      expect(text(el)).to.contain('This account has closed');
      expect(button(el, 'Share the details') ?? button(el, 'Copy all')).to.equal(undefined);
    });

    it('shares the dial code, the bank, the amount and the reference for USSD', async () => {
      const shared: ShareData[] = [];
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: async (data: ShareData) => void shared.push(data),
      });
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      button(el, 'Share the details')!.click();
      expect(shared).to.deep.equal([
        {
          text: [
            'Dial this code to pay',
            USSD_PAYMENTS.ussdDailCode,
            'Bank: GTBank',
            'Amount: ₦7,250.00',
            'Reference: ORD-1001',
          ].join('\n'),
        },
      ]);
    });

    it('without the Web Share API, copies them all and fires pay-copy', async () => {
      Object.defineProperty(navigator, 'share', { configurable: true, value: undefined });
      const written = stubClipboard();
      const el = await transferShown();
      expect(button(el, 'Share the details')).to.equal(undefined);
      const copied = nextEvent(el, 'pay-copy');
      button(el, 'Copy all')!.click();
      expect((await copied).detail).to.deep.equal({
        paymentType: 'TRANSFER',
        paymentReference: TRANSFER_PAYMENTS.paymentReference,
        field: 'instructions',
        value: TRANSFER_TEXT,
      });
      expect(written).to.deep.equal([TRANSFER_TEXT]);
      await el.updateComplete;
      expect(button(el, 'Copied'), 'the button says so').to.not.equal(undefined);
      await expect(el).to.be.accessible();
    });
  });

  describe('a declined payment', () => {
    const DECLINED = errorBody(
      'payment_declined',
      'The payment was declined. Please try another bank or payment method.',
    );
    const SAID = {
      yo: { title: 'A kò lè bẹ̀rẹ̀ ìsanwó náà', text: 'Wọ́n kọ ìsanwó náà. Gbìyànjú báńkì míì tàbí ọ̀nà ìsanwó míì.' },
      ha: { title: 'Ba a iya fara biyan ba', text: 'An ƙi biyan. Ku gwada wani banki ko wata hanyar biya.' },
    };
    for (const [locale, said] of Object.entries(SAID)) {
      it(`is said in the widget's language (${locale}), not the server's English`, async () => {
        stubFetch(route({ session: () => json({ ...DECLINED, error: { ...DECLINED.error, retryable: false } }, 402) }));
        const el = await widget({ 'session-url': SESSION_URL, locale });
        await fillUssd(el);
        const { detail } = await submitUntil(el, 'pay-error');
        expect(detail.message).to.equal(said.text);
        expect(heading(el)!.textContent).to.equal(said.title);
        expect(text(el)).to.contain(said.text);
        expect(text(el)).not.to.contain('declined');
        await expect(el).to.be.accessible();
      });
    }

    it("shows the server's text for a code the widget does not know", async () => {
      stubFetch(route({ session: () => json(errorBody('shop_closed', 'Closed for the holiday'), 503) }));
      const el = await widget({ 'session-url': SESSION_URL, locale: 'yo' });
      await fillUssd(el);
      await submitUntil(el, 'pay-error');
      expect(text(el)).to.contain('Iṣẹ́ ìsanwó náà kò lè ṣe ìbéèrè náà.');
      expect(text(el)).to.contain('Closed for the holiday');
    });
  });
});
