/**
 * The session endpoint's `order`: after a submit the widget shows and reports only what the server
 * charges, never the page's `amount` attribute (DESIGN.md, "The session-endpoint contract").
 */
import { expect } from '@open-wc/testing';
import {
  button,
  errorBody,
  fillTransfer,
  fillUssd,
  heading,
  idempotencyKeys,
  json,
  nextEvent,
  orderFor,
  part,
  restoreAll,
  root,
  route,
  SESSION_URL,
  STATUS_URL,
  stubFetch,
  submitUntil,
  text,
  TRANSFER_PAYMENTS,
  transferEnvelope,
  USSD_PAYMENTS,
  ussdEnvelope,
  widget,
} from './helpers.js';

const liveRegion = (el: HTMLElement) => el.shadowRoot!.querySelector('[role="status"]')!.textContent;

describe('<pay-widget>', () => {
  afterEach(restoreAll);

  describe("the server's order", () => {
    it("shows, announces and reports the server's amount and currency, not the page's", async () => {
      stubFetch(
        route({
          session: () =>
            json(transferEnvelope(TRANSFER_PAYMENTS, orderFor(TRANSFER_PAYMENTS, { amount: '12.5', currency: 'GHS' }))),
        }),
      );
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000', currency: 'NGN', locale: 'en' });
      await fillTransfer(el);
      const { detail } = await submitUntil(el, 'pay-initiated');

      expect(detail.amount).to.equal('12.5');
      expect(text(el)).to.contain('send exactly the amount below');
      expect(detail.currency).to.equal('GHS');
      expect(text(el)).to.match(/GHS\s12\.50/);
      expect(text(el)).not.to.contain('5,000');
      expect(text(el)).not.to.contain('₦');
      expect(liveRegion(el)).to.match(/GHS\s12\.50/);
    });

    for (const [title, order] of [
      ['sends no order', null],
      [
        'sends a malformed order',
        { paymentReference: TRANSFER_PAYMENTS.paymentReference, amount: 'lots', currency: 'NGN' },
      ],
      ['sends an order that is not an object', '7250 NGN'],
    ] as const) {
      it(`shows no amount at all when a hand-written endpoint ${title}, never the page's guess`, async () => {
        stubFetch(route({ session: () => json(transferEnvelope(TRANSFER_PAYMENTS, order)) }));
        const el = await widget({ 'session-url': SESSION_URL, amount: '5000', currency: 'NGN' });
        await fillTransfer(el);
        const { detail } = await submitUntil(el, 'pay-initiated');

        expect(detail).not.to.have.property('amount');
        expect(detail).not.to.have.property('currency');
        expect(part(el, 'account-number')!.textContent).to.equal(TRANSFER_PAYMENTS.accountNumber);
        expect(text(el)).not.to.contain('5,000');
        expect(text(el)).not.to.contain('₦');
        expect(root(el).querySelector('dl')!.textContent).not.to.contain('Amount');
        expect(text(el), 'no "amount below" that is not there').not.to.contain('the amount below');
        expect(text(el)).to.contain('send the amount you were asked to pay');
        expect(liveRegion(el)).to.equal(
          `Transfer to this account: ${TRANSFER_PAYMENTS.accountNumber}, ${TRANSFER_PAYMENTS.bankName}`,
        );
      });
    }

    it('refuses an order for another payment than the instructions: no instructions, an invalid-response error', async () => {
      const stranger = orderFor({ paymentReference: 'ORD-9999' });
      stubFetch(route({ session: () => json(ussdEnvelope(USSD_PAYMENTS, stranger)) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillUssd(el);
      let initiated = 0;
      el.addEventListener('pay-initiated', () => initiated++);
      const { detail } = await submitUntil(el, 'pay-error');

      expect(detail).to.include({ code: 'invalid-response', retryable: false });
      expect(initiated).to.equal(0);
      expect(part(el, 'dial-code')).to.equal(null);
      expect(heading(el)!.textContent).to.equal('The payment could not be started');
      expect(button(el, 'Edit details')).to.not.equal(undefined);
    });

    it('reports no amount on pay-complete either when the endpoint sent no order', async function () {
      this.timeout(8_000);
      stubFetch(
        route({
          session: () => json(ussdEnvelope(USSD_PAYMENTS, null)),
          status: () => json({ status: 'SUCCESS', amount: '5000', currency: 'NGN' }),
        }),
      );
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL, amount: '5000' });
      await fillUssd(el);
      const { detail } = await submitUntil(el, 'pay-complete');
      expect(detail).to.deep.equal({
        paymentType: 'USSD',
        paymentReference: USSD_PAYMENTS.paymentReference,
        status: 'SUCCESS',
        message: undefined,
      });
      expect(text(el)).not.to.contain('5,000');
    });

    it('polls with the reference only when the order carries no status token', async function () {
      this.timeout(8_000);
      const { statusToken: _, ...untokened } = orderFor(USSD_PAYMENTS);
      const calls = stubFetch(
        route({
          session: () => json(ussdEnvelope(USSD_PAYMENTS, untokened)),
          status: () => json({ status: 'FAILED' }),
        }),
      );
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL });
      await fillUssd(el);
      await submitUntil(el, 'pay-complete');
      const poll = calls.find((call) => call.url.pathname === STATUS_URL)!;
      expect([...poll.url.searchParams.keys()]).to.deep.equal(['paymentReference']);
    });
  });

  describe("the server's deadline", () => {
    it('waits 30 s by default, longer than the server’s deadline, so its answer is the one shown', async () => {
      const el = await widget();
      expect(el.timeout).to.equal(30_000);
    });

    it("says the server's 504 in the widget's own words, with a retry that reuses the same Idempotency-Key", async () => {
      const message = 'The payment could not be started in time. Please try again.';
      const ours = 'The payment service took too long to answer. Try again.';
      const calls = stubFetch(
        route({
          session: (_, index) =>
            index === 0 ? json(errorBody('gateway_timeout', message), 504) : json(ussdEnvelope()),
        }),
      );
      const el = await widget();
      await fillUssd(el);
      const { detail } = await submitUntil(el, 'pay-error');

      expect(detail).to.include({ code: 'gateway', retryable: true, message: ours });
      expect(text(el)).to.contain(ours);
      expect(text(el), 'gateway_timeout is a code the widget knows: its words, in its language').not.to.contain(
        message,
      );
      const initiated = nextEvent(el, 'pay-initiated');
      button(el, 'Try again')!.click();
      await initiated;
      expect(idempotencyKeys(calls)).to.have.length(2);
      expect(idempotencyKeys(calls)[1]).to.equal(idempotencyKeys(calls)[0]);
    });
  });
});
