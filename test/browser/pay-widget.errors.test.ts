import { expect, waitUntil } from '@open-wc/testing';
import type { PayErrorCode } from '../../src/index.js';
import {
  busyShown,
  BANK_CODE,
  button,
  clickSubmit,
  control,
  CUSTOMER,
  deferred,
  errorBody,
  fieldError,
  fillTransfer,
  fillUssd,
  focused,
  hang,
  holdTimers,
  idempotencyKeys,
  heading,
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
  TRANSFER_PAYMENTS,
  typeInto,
  USSD_PAYMENTS,
  ussdEnvelope,
  widget,
  type FetchCall,
  type PayWidget,
} from './helpers.js';

const ERROR_TITLE = 'The payment could not be started';
const SHOWN = {
  network: 'We could not reach the payment service. Check your connection and try again.',
  timeout: 'The payment service took too long to answer. Try again.',
  http: 'The payment service could not handle the request.',
  gateway: 'The payment provider could not start this payment.',
  'invalid-response': 'The payment service sent an answer we could not read.',
  validation: 'Some details need correcting.',
  config: 'This payment form is not set up correctly. Please tell the merchant.',
  setup: 'This payment form is not set up correctly. Please tell the shop.', // script-tag-without-second-file.test.ts
} satisfies Record<PayErrorCode, string>;

/** A body stream that fails while it is read. */
const unreadable = () =>
  new ReadableStream({
    start(controller) {
      controller.error(new TypeError('network error while reading the body'));
    },
  });

type FailureCase = {
  title: string;
  paymentType: 'USSD' | 'TRANSFER';
  respond: (call: FetchCall) => Response | Promise<Response>;
  code: PayErrorCode;
  /** What the gateway or endpoint said, shown beside our explanation and reported in pay-error. */
  gatewayMessage?: string;
  /**
   * For a server error code the widget knows: its own words, shown and reported instead of
   * SHOWN[code], and `hidden`, the server's text, which is not shown.
   */
  says?: string;
  hidden?: string;
  retryable: boolean;
  attributes?: Record<string, string>;
};

const failures: FailureCase[] = [
  {
    title: 'the network is down (fetch rejects)',
    paymentType: 'USSD',
    respond: () => Promise.reject(new TypeError('Failed to fetch')),
    code: 'network',
    retryable: true,
  },
  {
    title: 'the session endpoint does not answer within `timeout`',
    paymentType: 'TRANSFER',
    respond: hang,
    code: 'timeout',
    retryable: true,
    attributes: { timeout: '80' },
  },
  {
    title: 'an HTTP 503 with the contract’s JSON error body',
    paymentType: 'USSD',
    respond: () => json(errorBody('upstream_unavailable', 'Payments are paused for maintenance until 02:00'), 503),
    code: 'http',
    gatewayMessage: 'Payments are paused for maintenance until 02:00',
    retryable: true,
  },
  {
    title: 'an HTTP 400 with the contract’s JSON error body (not retryable)',
    paymentType: 'TRANSFER',
    respond: () => json(errorBody('currency_not_supported', 'This merchant does not accept USD'), 400),
    code: 'http',
    gatewayMessage: 'This merchant does not accept USD',
    retryable: false,
  },
  {
    // Issue 24, defect 1: the server's answer to a new attempt for a cart changed after its payment
    // started. Try again would meet the same refusal; Edit details (a new attempt) is the way on.
    title: 'an HTTP 409 order_changed, retryable false (the cart changed after its payment started)',
    paymentType: 'USSD',
    respond: () =>
      json(
        {
          status: 'ERROR',
          error: { code: 'order_changed', message: 'This order changed after its payment started.', retryable: false },
        },
        409,
      ),
    code: 'http',
    says: 'The order changed. Reload the page to pay the new amount.',
    hidden: 'This order changed after its payment started.',
    retryable: false,
  },
  {
    title: 'an HTTP 502 whose error code names the gateway',
    paymentType: 'TRANSFER',
    respond: () => json(errorBody('gateway_timeout', 'The bank did not answer in time'), 502),
    code: 'gateway',
    says: SHOWN.timeout,
    hidden: 'The bank did not answer in time',
    retryable: true,
  },
  {
    title: 'an HTTP 400 passing the gateway’s own error envelope through',
    paymentType: 'USSD',
    respond: () => json({ status: 'FAILED', data: { code: 'E14', message: 'Unknown bank code', payments: null } }, 400),
    code: 'http',
    gatewayMessage: 'Unknown bank code',
    retryable: false,
  },
  {
    title: 'an HTML error page',
    paymentType: 'USSD',
    respond: () =>
      new Response('<!doctype html><html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>', {
        status: 502,
        headers: { 'Content-Type': 'text/html' },
      }),
    code: 'http',
    retryable: true,
  },
  {
    title: 'an empty body with HTTP 500',
    paymentType: 'TRANSFER',
    respond: () => new Response(null, { status: 500 }),
    code: 'http',
    retryable: true,
  },
  {
    title: 'an unreadable body (the stream fails)',
    paymentType: 'USSD',
    respond: () => new Response(unreadable(), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    code: 'invalid-response',
    retryable: true,
  },
  {
    title: 'a 200 whose body is truncated JSON',
    paymentType: 'TRANSFER',
    respond: () => new Response('{"status":"SUCCESS","data":{"pay', { status: 200 }),
    code: 'invalid-response',
    retryable: true,
  },
  {
    title: 'a 200 whose body is not an envelope',
    paymentType: 'USSD',
    respond: () => json({ ok: true, reference: 'ORD-1001' }),
    code: 'invalid-response',
    retryable: true,
  },
  {
    title: 'a USSD success envelope without the dial code',
    paymentType: 'USSD',
    respond: () => {
      const { ussdDailCode, ...payments } = USSD_PAYMENTS;
      return json({ status: 'SUCCESS', data: { code: null, message: 'USSD is unavailable for this bank', payments } });
    },
    code: 'gateway',
    gatewayMessage: 'USSD is unavailable for this bank',
    retryable: true,
  },
  {
    title: 'a TRANSFER success envelope without the account number',
    paymentType: 'TRANSFER',
    respond: () => {
      const { accountNumber, ...payments } = TRANSFER_PAYMENTS;
      return json({ status: 'SUCCESS', data: { code: '00', message: 'Account could not be opened', payments } });
    },
    code: 'gateway',
    gatewayMessage: 'Account could not be opened',
    retryable: true,
  },
  {
    title: 'a USSD answer carrying TRANSFER payments',
    paymentType: 'USSD',
    respond: () => json(transferEnvelope()),
    code: 'gateway',
    gatewayMessage: 'Account opened for this payment',
    retryable: true,
  },
  {
    title: 'an envelope whose status is not SUCCESS',
    paymentType: 'TRANSFER',
    respond: () =>
      json({ status: 'FAILED', data: { code: '51', message: 'Daily transfer limit exceeded', payments: null } }),
    code: 'gateway',
    gatewayMessage: 'Daily transfer limit exceeded',
    retryable: false,
  },
];

async function fill(el: PayWidget, paymentType: 'USSD' | 'TRANSFER'): Promise<void> {
  await (paymentType === 'USSD' ? fillUssd(el) : fillTransfer(el));
}

describe('<pay-widget>', () => {
  afterEach(restoreAll);

  describe('when the payment cannot be started', () => {
    for (const failure of failures) {
      it(`reports ${failure.title} as "${failure.code}" and never shows a half-empty result`, async () => {
        const calls = stubFetch(route({ session: failure.respond }));
        const el = await widget({ 'session-url': SESSION_URL, amount: '5000', ...failure.attributes });
        await fill(el, failure.paymentType);
        let initiated = 0;
        el.addEventListener('pay-initiated', () => initiated++);

        const { detail } = await submitUntil(el, 'pay-error');

        expect(detail).to.deep.equal({
          paymentType: failure.paymentType,
          code: failure.code,
          message: failure.says ?? failure.gatewayMessage ?? SHOWN[failure.code],
          retryable: failure.retryable,
        });
        expect(calls).to.have.length(1);
        expect(initiated).to.equal(0);
        expect(heading(el)!.textContent).to.equal(ERROR_TITLE);
        const shown = failure.says ?? SHOWN[failure.code];
        expect(text(el)).to.contain(shown);
        if (failure.gatewayMessage) expect(text(el)).to.contain(failure.gatewayMessage);
        if (failure.hidden) expect(text(el)).not.to.contain(failure.hidden);
        expect(part(el, 'dial-code')).to.equal(null);
        expect(part(el, 'account-number')).to.equal(null);
        expect(part(el, 'form')).to.equal(null);
        expect(root(el).querySelector('[role="status"]')!.textContent).to.equal(`${ERROR_TITLE}. ${shown}`);
        expect(Boolean(button(el, 'Try again')), 'a retry button exactly when retryable').to.equal(failure.retryable);
        expect(button(el, 'Edit details')).to.not.equal(undefined);
        expect(focused(el)).to.equal(heading(el));
      });
    }

    it('abandons a request that outlives `timeout` by aborting its fetch', async () => {
      const calls = stubFetch(route({ session: hang }));
      const el = await widget({ 'session-url': SESSION_URL, timeout: '60' });
      await fillTransfer(el);
      const started = performance.now();
      await submitUntil(el, 'pay-error');
      expect(performance.now() - started).to.be.below(2_000);
      expect(calls[0]!.signal!.aborted).to.equal(true);
    });

    it('does not show HTML from an error page', async () => {
      stubFetch(route({ session: () => new Response('<h3>Internal Server Error</h3>', { status: 500 }) }));
      const el = await widget();
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      expect(root(el).querySelector('h3')).to.equal(null);
      expect(text(el)).not.to.contain('Internal Server Error');
    });

    it('reports a missing session-url as "config" without sending anything', async () => {
      const calls = stubFetch(() => {
        throw new TypeError('nothing may be fetched');
      });
      const el = await widget({ amount: '5000' });
      await fillTransfer(el);
      const { detail } = await submitUntil(el, 'pay-error');
      expect(detail).to.deep.equal({
        paymentType: 'TRANSFER',
        code: 'config',
        message: SHOWN.config,
        retryable: false,
      });
      expect(calls).to.have.length(0);
      expect(text(el)).to.contain(SHOWN.config);
      expect(button(el, 'Try again')).to.equal(undefined);
    });

    it('shows a 422’s field messages, then puts them on the fields after Edit details', async () => {
      const calls = stubFetch(
        route({
          session: () =>
            json(
              errorBody('validation', 'Some details were refused', {
                email: 'This email address is blocked for payments',
                mobileNumber: 'This number is not registered with a bank',
              }),
              422,
            ),
        }),
      );
      const el = await widget();
      await fillUssd(el);
      const { detail } = await submitUntil(el, 'pay-error');
      expect(detail).to.deep.equal({
        paymentType: 'USSD',
        code: 'validation',
        message: SHOWN.validation,
        retryable: false,
      });
      expect(text(el), 'the server’s summary gives way to the widget’s own').not.to.contain(
        'Some details were refused',
      );
      const items = [...root(el).querySelectorAll('li')].map((item) => item.textContent);
      expect(items).to.deep.equal([
        'This email address is blocked for payments',
        'This number is not registered with a bank',
      ]);
      expect(button(el, 'Try again')).to.equal(undefined);

      const resetting = nextEvent(el, 'pay-reset');
      button(el, 'Edit details')!.click();
      expect((await resetting).detail).to.deep.equal({ paymentType: 'USSD' });
      await el.updateComplete;

      expect(fieldError(el, 'email')).to.equal('This email address is blocked for payments');
      expect(fieldError(el, 'mobileNumber')).to.equal('This number is not registered with a bank');
      expect(fieldError(el, 'fullName')).to.equal(undefined);
      const email = control(el, 'email');
      expect(email.getAttribute('aria-invalid')).to.equal('true');
      expect(email.getAttribute('aria-describedby')).to.equal('email-error');
      expect(focused(el), 'focus on the first refused field').to.equal(email);

      // The refused fields block a resubmit until the customer changes them.
      clickSubmit(el);
      await el.updateComplete;
      expect(calls).to.have.length(1);

      await typeInto(el, 'email', 'ada.obi@example.org');
      expect(fieldError(el, 'email')).to.equal(undefined);
      expect(email.getAttribute('aria-invalid')).to.equal('false');
      expect(fieldError(el, 'mobileNumber')).to.equal('This number is not registered with a bank');
    });
  });

  describe('a gateway message containing markup', () => {
    const markup = '<img src=x onerror=alert(1)>';

    it('is shown as text in the error screen', async () => {
      stubFetch(route({ session: () => json(errorBody('bad_request', `Refused: ${markup}`), 400) }));
      const el = await widget();
      await fillTransfer(el);
      const { detail } = await submitUntil(el, 'pay-error');
      expect(detail.message).to.equal(`Refused: ${markup}`);
      expect(root(el).querySelector('img')).to.equal(null);
      expect(part(el, 'result')!.textContent).to.contain(`Refused: ${markup}`);
    });

    it('is shown as text in the field messages of a 422', async () => {
      stubFetch(route({ session: () => json(errorBody('validation', markup, { fullName: markup }), 422) }));
      const el = await widget();
      await fillTransfer(el);
      await submitUntil(el, 'pay-error');
      expect(root(el).querySelector('img')).to.equal(null);
      expect(root(el).querySelector('li')!.textContent).to.equal(markup);
      button(el, 'Edit details')!.click();
      await el.updateComplete;
      expect(root(el).querySelector('img')).to.equal(null);
      expect(fieldError(el, 'fullName')).to.equal(markup);
    });

    it('is shown as text in the completion screen', async function () {
      this.timeout(6_000);
      stubFetch(
        route({
          session: () => json(ussdEnvelope()),
          status: () => json({ status: 'FAILED', message: markup }),
        }),
      );
      const el = await widget({ 'session-url': SESSION_URL, 'status-url': '/pay/status' });
      await fillUssd(el);
      const completed = nextEvent(el, 'pay-complete');
      clickSubmit(el);
      await completed;
      await el.updateComplete;
      expect(root(el).querySelector('img')).to.equal(null);
      expect(part(el, 'result')!.textContent).to.contain(markup);
    });
  });

  describe('sending once', () => {
    it('sends one request for a double click on pay', async () => {
      const answer = deferred<Response>();
      const calls = stubFetch(route({ session: () => answer.promise }));
      const el = await widget();
      await fillUssd(el);
      let submits = 0;
      el.addEventListener('pay-submit', () => submits++);

      const submitButton = part<HTMLButtonElement>(el, 'submit')!;
      submitButton.click();
      submitButton.click();
      el.submit();
      await el.updateComplete;
      submitButton.click();
      control(el, 'fullName').form!.requestSubmit();
      await waitUntil(() => calls.length > 0, 'the request goes out');
      await el.updateComplete;

      expect(calls).to.have.length(1);
      expect(submits).to.equal(1);
      await busyShown(el);
      submitButton.click();
      expect(calls).to.have.length(1);
      expect(submitButton.closest('fieldset')!.disabled, 'the form is disabled while the request is out').to.equal(
        true,
      );

      const initiated = nextEvent(el, 'pay-initiated');
      answer.resolve(json(ussdEnvelope()));
      await initiated;
      expect(calls).to.have.length(1);
    });

    it('shows progress, after a moment, while the request is out', async () => {
      const answer = deferred<Response>();
      stubFetch(route({ session: () => answer.promise }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillTransfer(el);
      control(el, 'email').focus();
      control(el, 'email').form!.requestSubmit();
      await el.updateComplete;
      expect(part(el, 'form')!.getAttribute('aria-busy'), 'at first the form stays as it was').to.equal('false');

      await busyShown(el);
      expect(part(el, 'submit')!.textContent).to.contain('Starting your payment…');
      expect(root(el).querySelector('[role="status"]')!.textContent).to.equal('Starting your payment…');
      expect(part<HTMLButtonElement>(el, 'submit')!.closest('fieldset')!.disabled).to.equal(true);
      expect(focused(el), 'the focus left the control before it was disabled').to.equal(null);
      expect(control(el, 'email').value, 'what was typed is still shown').to.equal(CUSTOMER.email);
      answer.resolve(json(transferEnvelope()));
      await nextEvent(el, 'pay-initiated');
    });

    it('goes straight from the form to the result when the answer is quick, with no busy state between', async () => {
      holdTimers(100); // the answer comes before the form would show that it is busy, however loaded the machine
      stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
      await fillUssd(el);
      const seen: string[] = [];
      const observer = new MutationObserver(() => {
        const form = part(el, 'form');
        if (form?.getAttribute('aria-busy') === 'true') seen.push('aria-busy');
        if (form?.querySelector('fieldset')!.disabled) seen.push('disabled');
        if (root(el).querySelector('[role="status"]')!.textContent === 'Starting your payment…') seen.push('announced');
      });
      observer.observe(root(el), { subtree: true, childList: true, attributes: true, characterData: true });
      await submitUntil(el, 'pay-initiated');
      observer.disconnect();

      expect(seen).to.deep.equal([]);
      expect(part(el, 'dial-code')!.textContent).to.equal(USSD_PAYMENTS.ussdDailCode);
      expect(heading(el)!.textContent).to.equal('Dial this code to pay');
    });

    it('shows progress at once for a retry from the error screen', async () => {
      const answer = deferred<Response>();
      stubFetch(
        route({
          session: (_, index) => (index === 0 ? Promise.reject(new TypeError('Failed to fetch')) : answer.promise),
        }),
      );
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-error');
      button(el, 'Try again')!.click();
      await el.updateComplete;
      expect(
        part(el, 'form')!.getAttribute('aria-busy'),
        'no editable form flashes between the error and the progress',
      ).to.equal('true');
      expect(part<HTMLButtonElement>(el, 'submit')!.closest('fieldset')!.disabled).to.equal(true);
      answer.resolve(json(ussdEnvelope()));
      await nextEvent(el, 'pay-initiated');
    });

    it('sends nothing when a pay-submit listener calls preventDefault()', async () => {
      const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
      const el = await widget();
      await fillUssd(el);
      el.addEventListener('pay-submit', (event) => event.preventDefault());
      const submitted = nextEvent(el, 'pay-submit');
      clickSubmit(el);
      const event = await submitted;
      await el.updateComplete;
      expect(event.defaultPrevented).to.equal(true);
      expect(calls).to.have.length(0);
      expect(part(el, 'form')).to.not.equal(null);
      expect(part(el, 'form')!.getAttribute('aria-busy')).to.equal('false');
    });
  });

  describe('idempotency', () => {
    it('retries with the same Idempotency-Key and body, and succeeds', async () => {
      const calls = stubFetch(
        route({
          session: (_, index) =>
            index === 0 ? Promise.reject(new TypeError('Failed to fetch')) : json(ussdEnvelope()),
        }),
      );
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-error');

      let submits = 0;
      el.addEventListener('pay-submit', () => submits++);
      const initiated = nextEvent(el, 'pay-initiated');
      button(el, 'Try again')!.click();
      const { detail } = await initiated;

      expect(detail.paymentReference).to.equal(USSD_PAYMENTS.paymentReference);
      expect(calls).to.have.length(2);
      expect(calls[1]!.headers.get('Idempotency-Key')).to.equal(calls[0]!.headers.get('Idempotency-Key'));
      expect(calls[1]!.body).to.equal(calls[0]!.body);
      expect(submits, 'a retry is not a new submit').to.equal(0);
    });

    it('retries a time-out with the same Idempotency-Key', async () => {
      const calls = stubFetch(
        route({ session: (call, index) => (index === 0 ? hang(call) : json(transferEnvelope())) }),
      );
      const el = await widget({ 'session-url': SESSION_URL, timeout: '60' });
      await fillTransfer(el);
      expect((await submitUntil(el, 'pay-error')).detail.code).to.equal('timeout');
      const initiated = nextEvent(el, 'pay-initiated');
      button(el, 'Try again')!.click();
      await initiated;
      const [first, second] = idempotencyKeys(calls);
      expect(second).to.equal(first);
    });

    it('uses a new Idempotency-Key after reset()', async () => {
      const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
      const el = await widget();
      await fillTransfer(el);
      await submitUntil(el, 'pay-initiated');
      el.reset();
      await el.updateComplete;
      await submitUntil(el, 'pay-initiated');

      expect(calls).to.have.length(2);
      expect(calls[1]!.body, 'the same details').to.equal(calls[0]!.body);
      const [first, second] = idempotencyKeys(calls);
      expect(first).to.match(/^[0-9a-f]{32}$/);
      expect(second).to.match(/^[0-9a-f]{32}$/);
      expect(second).not.to.equal(first);
    });

    /** Submits into a 503, goes back to the form through `back`, and submits again; returns both requests. */
    async function twoAttempts(back: (el: PayWidget) => void | Promise<void>): Promise<FetchCall[]> {
      const calls = stubFetch(route({ session: () => json(errorBody('upstream', 'Try later'), 503) }));
      const el = await widget();
      await fillUssd(el);
      await submitUntil(el, 'pay-error');
      await back(el);
      await el.updateComplete;
      await submitUntil(el, 'pay-error');
      expect(calls).to.have.length(2);
      return calls;
    }

    it('uses a new Idempotency-Key after reset() from the error screen', async () => {
      const [first, second] = idempotencyKeys(await twoAttempts((el) => el.reset()));
      expect(second).not.to.equal(first);
    });

    it('keeps the Idempotency-Key when the details are resubmitted unchanged after Edit details', async () => {
      const [first, second] = idempotencyKeys(await twoAttempts((el) => button(el, 'Edit details')!.click()));
      expect(second).to.equal(first);
    });

    it('uses a new Idempotency-Key for an unchanged resubmit after a decline, which ended that attempt', async () => {
      const calls = stubFetch(route({ session: () => json(errorBody('payment_declined', 'Insufficient funds'), 402) }));
      const el = await widget();
      await fillUssd(el);
      const declined = await submitUntil(el, 'pay-error');
      expect(declined.detail.retryable).to.equal(false);
      button(el, 'Edit details')!.click();
      await el.updateComplete;
      await submitUntil(el, 'pay-error');

      expect(calls).to.have.length(2);
      expect(calls[1]!.body, 'the same details').to.equal(calls[0]!.body);
      const [first, second] = idempotencyKeys(calls);
      expect(second).not.to.equal(first);
    });

    // Issue 16 item 1: the server says in `error.retryable` whether the same request can still succeed.
    describe('the error body says whether retrying can help', () => {
      const refusal = (retryable: boolean) => ({
        status: 'ERROR',
        error: { code: 'gateway_error', message: 'The provider refused this merchant account.', retryable },
      });

      it('retryable: false on a 502: no Try again; Edit details keeps the details, and a resubmit is a new attempt', async () => {
        const calls = stubFetch(
          route({ session: (_, index) => (index === 0 ? json(refusal(false), 502) : json(ussdEnvelope())) }),
        );
        const el = await widget();
        await fillUssd(el);
        const refused = await submitUntil(el, 'pay-error');

        expect(refused.detail.retryable).to.equal(false);
        expect(text(el)).to.contain(SHOWN.gateway);
        expect(text(el), 'a code the widget knows: its own words only').not.to.contain(
          'The provider refused this merchant account.',
        );
        expect(button(el, 'Try again'), 'Try again cannot help').to.equal(undefined);
        await expect(el).to.be.accessible();

        button(el, 'Edit details')!.click();
        await el.updateComplete;
        expect(control(el, 'fullName').value).to.equal(CUSTOMER.fullName);
        expect(control(el, 'bankCode').value).to.equal(BANK_CODE);
        // The keys were fixed: the same details go out again, as a new attempt.
        await submitUntil(el, 'pay-initiated');
        await el.updateComplete;

        expect(part(el, 'dial-code')!.textContent).to.equal(USSD_PAYMENTS.ussdDailCode);
        expect(calls).to.have.length(2);
        expect(calls[1]!.body, 'the same details').to.equal(calls[0]!.body);
        const [first, second] = idempotencyKeys(calls);
        expect(second).not.to.equal(first);
      });

      it('retryable: true: Try again, with the same Idempotency-Key', async () => {
        const calls = stubFetch(
          route({ session: (_, index) => (index === 0 ? json(refusal(true), 502) : json(ussdEnvelope())) }),
        );
        const el = await widget();
        await fillUssd(el);
        expect((await submitUntil(el, 'pay-error')).detail.retryable).to.equal(true);
        const initiated = nextEvent(el, 'pay-initiated');
        button(el, 'Try again')!.click();
        await initiated;
        const [first, second] = idempotencyKeys(calls);
        expect(second).to.equal(first);
      });
    });

    it('uses a new Idempotency-Key when a detail was changed after Edit details', async () => {
      const calls = await twoAttempts(async (el) => {
        button(el, 'Edit details')!.click();
        await el.updateComplete;
        await typeInto(el, 'fullName', 'Ada N. Obi');
      });
      expect(JSON.parse(calls[1]!.body!).fullName).to.equal('Ada N. Obi');
      const [first, second] = idempotencyKeys(calls);
      expect(second).not.to.equal(first);
    });
  });

  it('keeps everything the customer typed through a failure and Edit details', async () => {
    stubFetch(route({ session: () => Promise.reject(new TypeError('Failed to fetch')) }));
    const el = await widget();
    await fillUssd(el);
    await submitUntil(el, 'pay-error');

    const resetting = nextEvent(el, 'pay-reset');
    button(el, 'Edit details')!.click();
    expect((await resetting).detail).to.deep.equal({ paymentType: 'USSD' });
    await el.updateComplete;

    expect(radio(el, 'USSD').checked).to.equal(true);
    expect(control(el, 'fullName').value).to.equal(CUSTOMER.fullName);
    expect(control(el, 'email').value).to.equal(CUSTOMER.email);
    expect(control(el, 'mobileNumber').value).to.equal(CUSTOMER.mobileNumber);
    expect(control<HTMLSelectElement>(el, 'bankCode').value).to.equal(BANK_CODE);
    expect(focused(el), 'focus back in the form').to.equal(radio(el, 'USSD'));
    for (const field of ['fullName', 'email', 'mobileNumber', 'bankCode'] as const) {
      expect(fieldError(el, field), field).to.equal(undefined);
    }
  });
});
