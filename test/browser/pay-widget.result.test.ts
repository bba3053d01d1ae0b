import { expect, waitUntil } from '@open-wc/testing';
import {
  BANK_CODE,
  button,
  chooseBank,
  clickSubmit,
  control,
  CUSTOMER,
  emulateDevice,
  fillTransfer,
  fillUssd,
  focused,
  heading,
  json,
  nextEvent,
  NORMALIZED_MOBILE,
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
  USSD_PAYMENTS,
  ussdEnvelope,
  holdTimers,
  widget,
  type FetchCall,
  type PayWidget,
} from './helpers.js';

const statusCalls = (calls: FetchCall[]) => calls.filter((call) => call.url.pathname === STATUS_URL);
/** The status-url schedule's delay during the first minute. */
const POLL_MS = 2_000;

/** Clicks the (first) copy button; resolves with the pay-copy detail. */
async function copy(el: PayWidget) {
  const copied = nextEvent(el, 'pay-copy');
  part(el, 'copy-button')!.click();
  return (await copied).detail;
}

describe('<pay-widget>', () => {
  afterEach(restoreAll);

  describe('USSD happy path', () => {
    it('posts the session-endpoint contract with bankCode and a normalized mobile number', async () => {
      const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', currency: 'NGN', country: 'NG' });
      await fillUssd(el);

      await submitUntil(el, 'pay-initiated');

      expect(calls).to.have.length(1);
      const call = calls[0]!;
      expect(call.url.href).to.equal(new URL(SESSION_URL, location.href).href);
      expect(call.method).to.equal('POST');
      expect(call.headers.get('Content-Type')).to.equal('application/json');
      expect(call.headers.get('Idempotency-Key')).to.match(/^[0-9a-f]{32}$/);
      expect(call.credentials).to.equal('same-origin');
      expect(JSON.parse(call.body!)).to.deep.equal({
        paymentType: 'USSD',
        fullName: CUSTOMER.fullName,
        email: CUSTOMER.email,
        mobileNumber: NORMALIZED_MOBILE,
        bankCode: BANK_CODE,
        amount: '5000',
        currency: 'NGN',
        country: 'NG',
      });
    });

    it('fires pay-submit (cancelable, with the request) and pay-initiated with the USSD fields', async () => {
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillUssd(el);

      const submitted = nextEvent(el, 'pay-submit');
      const initiated = nextEvent(el, 'pay-initiated');
      clickSubmit(el);
      const submit = await submitted;
      expect(submit.cancelable).to.equal(true);
      expect(submit.bubbles).to.equal(true);
      expect(submit.composed).to.equal(true);
      expect(submit.detail.paymentType).to.equal('USSD');
      expect(submit.detail.request).to.deep.include({
        paymentType: 'USSD',
        bankCode: BANK_CODE,
        mobileNumber: NORMALIZED_MOBILE,
      });

      const { detail } = await initiated;
      expect(detail).to.deep.equal({
        paymentType: 'USSD',
        paymentReference: USSD_PAYMENTS.paymentReference,
        ussdDialCode: USSD_PAYMENTS.ussdDailCode,
        linkingReference: USSD_PAYMENTS.linkingReference,
        providerReference: USSD_PAYMENTS.providerreference,
        amount: '7250',
        currency: 'NGN',
      });
    });

    it('shows the dial code, a tel: link with # written %23 (on Android), the bank, the amount and the reference', async () => {
      emulateDevice('android');
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', currency: 'NGN', locale: 'en' });
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');

      expect(part(el, 'form')).to.equal(null);
      expect(heading(el)!.textContent).to.equal('Dial this code to pay');
      expect(part(el, 'dial-code')!.textContent).to.equal('*737*000*4412#');
      const dial = root(el).querySelector<HTMLAnchorElement>('a[href^="tel:"]')!;
      expect(dial.getAttribute('href')).to.equal('tel:*737*000*4412%23');
      expect(dial.textContent!.trim()).to.equal('Dial the code');
      const details = root(el).querySelector('dl')!.textContent!;
      expect(details).to.contain('GTBank');
      expect(details, "the server's amount, not the page's").to.contain('7,250.00');
      expect(text(el)).not.to.contain('5,000');
      expect(details).to.contain(USSD_PAYMENTS.paymentReference);
      expect(part(el, 'account-number')).to.equal(null);
      expect(part(el, 'status'), 'no status-url, no waiting line').to.equal(null);
    });

    it('copies the dial code and fires pay-copy with the field and value', async () => {
      const written = stubClipboard();
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');

      expect(await copy(el)).to.deep.equal({
        paymentType: 'USSD',
        paymentReference: USSD_PAYMENTS.paymentReference,
        field: 'ussdDialCode',
        value: USSD_PAYMENTS.ussdDailCode,
      });
      expect(written).to.deep.equal([USSD_PAYMENTS.ussdDailCode]);
      await el.updateComplete;
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal('Copied to the clipboard');
    });

    it('says "Copied" on the copy button for a moment, then offers to copy again', async () => {
      stubClipboard();
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');

      const copyButton = part(el, 'copy-button')!;
      expect(copyButton.textContent!.trim()).to.equal('Copy code');
      await copy(el);
      await el.updateComplete;
      expect(copyButton.textContent!.trim(), 'visible feedback on the button itself').to.equal('Copied');
      await waitUntil(() => copyButton.textContent!.trim() === 'Copy code', 'the button never came back', {
        timeout: 4_000,
      });
    });

    it('says so when the clipboard refuses, and fires no pay-copy', async () => {
      stubClipboard(true);
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');

      let copies = 0;
      el.addEventListener('pay-copy', () => copies++);
      part(el, 'copy-button')!.click();
      const status = root(el).querySelector('[role="status"]')!;
      await waitUntil(() => status.textContent!.includes('Could not copy'), 'no copy-failed announcement');
      expect(copies).to.equal(0);
      expect(
        part(el, 'copy-button')!.textContent!.trim(),
        'visible, not only for screen readers, and not "Copied"',
      ).to.equal('Copy it yourself');
    });
  });

  describe('TRANSFER happy path', () => {
    async function initiateTransfer(): Promise<PayWidget> {
      stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', currency: 'NGN' });
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      return el;
    }

    it('sends no bankCode, even after a bank was picked for USSD, and fires pay-type-change', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', 'payment-reference': 'ORD-1002' });
      await fillUssd(el);

      const changed = nextEvent(el, 'pay-type-change');
      radio(el, 'TRANSFER').click();
      const { detail } = await changed;
      expect(detail).to.deep.equal({ paymentType: 'TRANSFER' });
      await el.updateComplete;
      expect(root(el).querySelector('[name="bankCode"]'), 'no bank list for a transfer').to.equal(null);

      const submitted = nextEvent(el, 'pay-submit');
      const initiated = nextEvent(el, 'pay-initiated');
      clickSubmit(el);
      expect((await submitted).detail.request).not.to.have.property('bankCode');
      await initiated;

      expect(calls).to.have.length(1);
      expect(calls[0]!.headers.get('Content-Type')).to.equal('application/json');
      expect(JSON.parse(calls[0]!.body!)).to.deep.equal({
        paymentType: 'TRANSFER',
        fullName: CUSTOMER.fullName,
        email: CUSTOMER.email,
        mobileNumber: NORMALIZED_MOBILE,
        amount: '5000',
        currency: 'NGN',
        country: 'NG',
        paymentReference: 'ORD-1002',
      });
    });

    it('fires pay-initiated with the account fields', async () => {
      stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget();
      await fillTransfer(el);
      const initiated = nextEvent(el, 'pay-initiated');
      clickSubmit(el);
      const { detail } = await initiated;
      expect(detail).to.deep.equal({
        paymentType: 'TRANSFER',
        paymentReference: TRANSFER_PAYMENTS.paymentReference,
        accountNumber: TRANSFER_PAYMENTS.accountNumber,
        bankName: TRANSFER_PAYMENTS.bankName,
        walletName: TRANSFER_PAYMENTS.walletName,
        wallet: TRANSFER_PAYMENTS.wallet,
        amount: '7250',
        currency: 'NGN',
      });
    });

    it('shows the bank, the account number, the account name, the exact amount and the reference', async () => {
      const el = await initiateTransfer();
      expect(heading(el)!.textContent).to.equal('Transfer to this account');
      expect(part(el, 'account-number')!.textContent).to.equal(TRANSFER_PAYMENTS.accountNumber);
      const details = root(el).querySelector('dl')!.textContent!;
      expect(part(el, 'account-number')!.closest('.value')!.textContent, 'the bank with the account number').to.contain(
        TRANSFER_PAYMENTS.bankName,
      );
      expect(details).to.contain(TRANSFER_PAYMENTS.walletName);
      expect(text(el), "the server's amount, not the page's").to.contain('7,250.00');
      expect(text(el)).not.to.contain('5,000');
      expect(details).to.contain(TRANSFER_PAYMENTS.paymentReference);
      expect(part(el, 'dial-code')).to.equal(null);
      expect(root(el).querySelector('a[href^="tel:"]')).to.equal(null);
    });

    it('moves focus to the result heading', async () => {
      const el = await initiateTransfer();
      expect(focused(el)).to.equal(heading(el));
    });

    it('copies the account number and fires pay-copy', async () => {
      const written = stubClipboard();
      const el = await initiateTransfer();
      expect(await copy(el)).to.deep.equal({
        paymentType: 'TRANSFER',
        paymentReference: TRANSFER_PAYMENTS.paymentReference,
        field: 'accountNumber',
        value: TRANSFER_PAYMENTS.accountNumber,
      });
      expect(written).to.deep.equal([TRANSFER_PAYMENTS.accountNumber]);
    });

    it("shows the server's amount as large as the account number, with its own copy button", async () => {
      const written = stubClipboard();
      const el = await initiateTransfer();
      const amount = part(el, 'amount')!;
      expect(amount.textContent).to.equal('₦7,250.00');
      const accountStyle = getComputedStyle(part(el, 'account-number')!);
      const amountStyle = getComputedStyle(amount);
      expect([amountStyle.fontSize, amountStyle.fontWeight]).to.deep.equal([
        accountStyle.fontSize,
        accountStyle.fontWeight,
      ]);
      expect(root(el).querySelector('dl')!.textContent, 'not repeated in the small print').not.to.contain('7,250');

      const copyAmount = amount.closest('.value')!.querySelector('button')!;
      expect(copyAmount.textContent!.trim()).to.equal('Copy amount');
      const copied = nextEvent(el, 'pay-copy');
      copyAmount.click();
      expect((await copied).detail).to.deep.equal({
        paymentType: 'TRANSFER',
        paymentReference: TRANSFER_PAYMENTS.paymentReference,
        field: 'amount',
        value: '7250',
      });
      expect(written, 'digits a bank app takes').to.deep.equal(['7250']);
      await el.updateComplete;
      expect(copyAmount.textContent!.trim()).to.equal('Copied');
      expect(part(el, 'copy-button')!.textContent!.trim(), 'the other button unchanged').to.equal(
        'Copy account number',
      );
    });

    it('goes back to the form on reset() with pay-reset, the typed values kept', async () => {
      const el = await initiateTransfer();
      const resetting = nextEvent(el, 'pay-reset');
      el.reset();
      const { detail } = await resetting;
      expect(detail).to.deep.equal({ paymentType: 'TRANSFER', paymentReference: TRANSFER_PAYMENTS.paymentReference });
      await el.updateComplete;
      expect(part(el, 'form')).to.not.equal(null);
      expect(control(el, 'fullName').value).to.equal(CUSTOMER.fullName);
      expect(control(el, 'email').value).to.equal(CUSTOMER.email);
      expect(radio(el, 'TRANSFER').checked).to.equal(true);
    });
  });

  it('fires pay-ready once the first render is done', async () => {
    const el = document.createElement('pay-widget');
    el.setAttribute('payment-type', 'TRANSFER');
    const ready = nextEvent(el, 'pay-ready');
    document.body.append(el);
    try {
      const event = await ready;
      expect(event.detail).to.deep.equal({ paymentType: 'TRANSFER' });
      expect(event.bubbles && event.composed).to.equal(true);
      expect(el.shadowRoot!.querySelector('form')).to.not.equal(null);
    } finally {
      el.remove();
    }
  });

  it('calls the initiate property instead of fetch, with the request and an idempotency key', async () => {
    const calls = stubFetch(() => {
      throw new TypeError('fetch must not be used');
    });
    const el = await widget({ amount: '5000' });
    const seen: { request: unknown; key: string; signal: AbortSignal }[] = [];
    el.initiate = async (request, { idempotencyKey, signal }) => {
      seen.push({ request, key: idempotencyKey, signal });
      return transferEnvelope();
    };
    await fillTransfer(el);
    await submitUntil(el, 'pay-initiated');
    expect(calls).to.have.length(0);
    expect(seen).to.have.length(1);
    expect(seen[0]!.request).to.deep.include({
      paymentType: 'TRANSFER',
      mobileNumber: NORMALIZED_MOBILE,
      amount: '5000',
    });
    expect(seen[0]!.key).to.match(/^[0-9a-f]{32}$/);
    expect(seen[0]!.signal).to.be.instanceOf(AbortSignal);
  });

  describe('status polling', () => {
    it('polls status-url until SUCCESS, then shows success and fires pay-complete', async function () {
      this.timeout(10_000);
      const calls = stubFetch(
        route({
          session: () => json(ussdEnvelope()),
          // A failed look-up is not an answer: the widget keeps asking.
          status: (_, index) =>
            index === 0
              ? new Response('busy', { status: 503 })
              : json({ status: 'SUCCESS', message: 'Paid from GTBank' }),
        }),
      );
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, amount: '5000' });
      await fillUssd(el);
      const initiated = nextEvent(el, 'pay-initiated');
      const completed = nextEvent(el, 'pay-complete');
      clickSubmit(el);
      await initiated;
      await el.updateComplete;
      expect(part(el, 'status')!.textContent).to.contain('Waiting for your payment');
      expect(statusCalls(calls)).to.have.length(0);

      const { detail } = await completed;
      expect(detail).to.deep.equal({
        paymentType: 'USSD',
        paymentReference: USSD_PAYMENTS.paymentReference,
        amount: '7250',
        currency: 'NGN',
        status: 'SUCCESS',
        message: 'Paid from GTBank',
      });
      const polled = statusCalls(calls);
      expect(polled).to.have.length(2);
      for (const call of polled) {
        expect(call.method).to.equal('GET');
        expect(call.url.searchParams.get('paymentReference')).to.equal(USSD_PAYMENTS.paymentReference);
        expect(call.url.searchParams.get('statusToken'), "the order's token").to.equal('st.signed-token');
      }

      await el.updateComplete;
      expect(heading(el)!.textContent).to.equal('Payment received');
      expect(text(el)).to.contain('Paid from GTBank');
      expect(focused(el)).to.equal(heading(el));
      expect(part(el, 'result')!.classList.contains('SUCCESS')).to.equal(true);
    });

    it('shows the failure screen when status-url reports FAILED, and starts over from it', async function () {
      this.timeout(8_000);
      stubFetch(
        route({
          session: () => json(transferEnvelope()),
          status: () => json({ status: 'FAILED', message: 'The transfer was reversed' }),
        }),
      );
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL });
      await fillTransfer(el);
      const completed = nextEvent(el, 'pay-complete');
      clickSubmit(el);
      const { detail } = await completed;
      expect(detail).to.deep.equal({
        paymentType: 'TRANSFER',
        paymentReference: TRANSFER_PAYMENTS.paymentReference,
        amount: '7250',
        currency: 'NGN',
        status: 'FAILED',
        message: 'The transfer was reversed',
      });
      await el.updateComplete;
      expect(heading(el)!.textContent).to.equal('Payment failed');
      expect(text(el)).to.contain('The transfer was reversed');

      const resetting = nextEvent(el, 'pay-reset');
      button(el, 'Make another payment')!.click();
      expect((await resetting).detail).to.deep.equal({
        paymentType: 'TRANSFER',
        paymentReference: TRANSFER_PAYMENTS.paymentReference,
      });
      await el.updateComplete;
      expect(part(el, 'form')).to.not.equal(null);
    });

    it('stops polling when the element is removed from the page', async () => {
      const timers = holdTimers();
      const calls = stubFetch(
        route({ session: () => json(ussdEnvelope()), status: () => json({ status: 'PENDING' }) }),
      );
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL });
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');

      expect(timers.pending(POLL_MS), 'the first look-up is scheduled').to.equal(1);
      timers.fire();
      await waitUntil(
        () => statusCalls(calls).length === 1 && timers.pending(POLL_MS) === 1,
        'PENDING: the next look-up is scheduled',
      );
      el.remove();
      expect(timers.pending(POLL_MS), 'nothing left to ask').to.equal(0);
      timers.fire();
      expect(statusCalls(calls)).to.have.length(1);
    });

    it('stops polling on reset()', async () => {
      const timers = holdTimers();
      const calls = stubFetch(
        route({ session: () => json(ussdEnvelope()), status: () => json({ status: 'PENDING' }) }),
      );
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL });
      await fillUssd(el);
      await submitUntil(el, 'pay-initiated');
      expect(timers.pending(POLL_MS)).to.equal(1);
      el.reset();
      expect(timers.pending(POLL_MS)).to.equal(0);
      timers.fire();
      expect(statusCalls(calls)).to.have.length(0);
    });
  });

  it('shows the chosen bank from the banks property on the USSD result', async () => {
    stubFetch(route({ session: () => json(ussdEnvelope()) }));
    const el = await widget();
    el.banks = [
      { code: '999', name: 'Merchant Test Bank' },
      { code: '998', name: 'Other Bank' },
    ];
    await el.updateComplete;
    await fillUssd(el, '999');
    const submitted = nextEvent(el, 'pay-submit');
    const initiated = nextEvent(el, 'pay-initiated');
    clickSubmit(el);
    expect((await submitted).detail.request).to.deep.include({ bankCode: '999' });
    await initiated;
    await el.updateComplete;
    expect(root(el).querySelector('dl')!.textContent).to.contain('Merchant Test Bank');
  });

  it('keeps the chosen bank when switching to TRANSFER and back', async () => {
    const el = await widget();
    await fillUssd(el);
    radio(el, 'TRANSFER').click();
    await el.updateComplete;
    radio(el, 'USSD').click();
    await el.updateComplete;
    expect(control<HTMLSelectElement>(el, 'bankCode').value).to.equal(BANK_CODE);
    await chooseBank(el, '057');
    expect(control<HTMLSelectElement>(el, 'bankCode').value).to.equal('057');
  });
});
