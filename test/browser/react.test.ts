/**
 * `pay-widget/react` as a merchant uses it: `<PayWidget sessionUrl=… amount="5000" onPayReady={…}
 * onPayInitiated={…} onPayError={…} />` rendered by React 19 (`react-dom/client`), the customer filling
 * the real form inside it. Written with `React.createElement`, so there is no JSX step; React itself is
 * CommonJS, converted for the browser by web-test-runner.config.mjs.
 */
import { expect } from '@open-wc/testing';
import * as React from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { Bank } from '../../src/element/banks.js';
import type { PayEventMap, PayEventName } from '../../src/element/events.js';
import { PayWidget } from '../../src/react.js';
import {
  BANK_CODE,
  clickSubmit,
  control,
  errorBody,
  fillUssd,
  json,
  part,
  restoreAll,
  route,
  SESSION_URL,
  stubFetch,
  ussdEnvelope,
  USSD_PAYMENTS,
  type PayWidget as PayWidgetElement,
} from './helpers.js';

type Props = React.ComponentProps<typeof PayWidget>;

/** An event prop that records every event it is called with; `next()` waits for the following one. */
function recorder<K extends PayEventName>() {
  const calls: PayEventMap[K][] = [];
  const waiting: ((event: PayEventMap[K]) => void)[] = [];
  return {
    calls,
    handler: (event: PayEventMap[K]) => {
      calls.push(event);
      waiting.shift()?.(event);
    },
    next: () => new Promise<PayEventMap[K]>((resolve) => waiting.push(resolve)),
  };
}

/** Not the default list: proves the array reached the element as a property, not an attribute. */
const BANKS: readonly Bank[] = [
  { code: BANK_CODE, name: 'Guaranty Trust Bank' },
  { code: '999', name: 'Sandbox Community Bank' },
];
const MESSAGES = { pay: 'Send {amount} now' };

describe('PayWidget (React wrapper)', () => {
  let container: HTMLDivElement;
  let reactRoot: Root;

  /** Renders `<PayWidget {...props} />` and commits it before returning the inner `<pay-widget>`. */
  async function render(props: Props): Promise<PayWidgetElement> {
    flushSync(() => reactRoot.render(React.createElement(PayWidget, props)));
    const el = container.querySelector('pay-widget') as PayWidgetElement | null;
    if (!el) throw new Error('React rendered no <pay-widget>');
    await el.updateComplete;
    return el;
  }

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    reactRoot = createRoot(container);
  });

  afterEach(() => {
    reactRoot.unmount();
    container.remove();
    restoreAll();
  });

  it('renders <pay-widget> with the props as properties, array and object props included', async () => {
    const ready = recorder<'pay-ready'>();
    const ref = React.createRef<PayWidgetElement>();
    const el = await render({
      ref,
      sessionUrl: SESSION_URL,
      amount: '5000',
      banks: BANKS,
      messages: MESSAGES,
      onPayReady: ready.handler,
    });

    expect(el).to.be.instanceOf(customElements.get('pay-widget')!);
    expect(ref.current).to.equal(el);
    expect(el.sessionUrl).to.equal(SESSION_URL);
    expect(el.amount).to.equal('5000');
    expect(el.banks).to.equal(BANKS);
    expect(el.messages).to.equal(MESSAGES);
    // The element used them: the custom bank list and button text are what the customer sees.
    const banks = [...control<HTMLSelectElement>(el, 'bankCode').options].filter((option) => option.value);
    expect(banks.map((option) => option.text)).to.deep.equal(BANKS.map((bank) => bank.name));
    const submit = part(el, 'submit')!.textContent!.trim();
    expect(submit).to.match(/^Send .*5,000.* now$/);

    // pay-ready fires on the first render, which follows React's commit: the listener was already on.
    expect(ready.calls).to.have.length(1);
    expect(ready.calls[0]).to.be.instanceOf(CustomEvent);
    expect(ready.calls[0]!.target).to.equal(el);
    expect(ready.calls[0]!.detail).to.deep.equal({ paymentType: 'USSD' });
  });

  it('calls onPayInitiated with the instructions when the customer fills the form and pays', async () => {
    const calls = stubFetch(route({ session: () => json(ussdEnvelope()) }));
    const initiated = recorder<'pay-initiated'>();
    const error = recorder<'pay-error'>();
    const el = await render({
      sessionUrl: SESSION_URL,
      amount: '5000',
      banks: BANKS,
      onPayInitiated: initiated.handler,
      onPayError: error.handler,
    });

    await fillUssd(el);
    const fired = initiated.next();
    clickSubmit(el);
    const event = await fired;

    expect(event.type).to.equal('pay-initiated');
    expect(event.target).to.equal(el);
    expect(event.detail).to.deep.equal({
      paymentType: 'USSD',
      paymentReference: USSD_PAYMENTS.paymentReference,
      ussdDialCode: USSD_PAYMENTS.ussdDailCode,
      linkingReference: USSD_PAYMENTS.linkingReference,
      providerReference: USSD_PAYMENTS.providerreference,
      amount: '7250',
      currency: 'NGN',
    });
    expect(initiated.calls).to.have.length(1);
    expect(error.calls).to.have.length(0);

    expect(calls).to.have.length(1);
    expect(calls[0]!.method).to.equal('POST');
    expect(calls[0]!.url.pathname).to.equal(SESSION_URL);
    // The request's shape is pay-widget.result.test.ts's business; here, that the props reached it.
    expect(JSON.parse(calls[0]!.body!)).to.include({ paymentType: 'USSD', bankCode: BANK_CODE, amount: '5000' });
  });

  it('calls onPayError for an invalid form, and with the endpoint’s failure', async () => {
    const calls = stubFetch(
      route({ session: () => json(errorBody('upstream_unavailable', 'Payments are paused until 02:00'), 503) }),
    );
    const initiated = recorder<'pay-initiated'>();
    const error = recorder<'pay-error'>();
    const el = await render({
      sessionUrl: SESSION_URL,
      amount: '5000',
      onPayInitiated: initiated.handler,
      onPayError: error.handler,
    });

    // Nothing filled in: the widget refuses before any request.
    let fired = error.next();
    clickSubmit(el);
    let event = await fired;
    expect(event.detail).to.include({ paymentType: 'USSD', code: 'validation', retryable: false });
    expect(calls).to.have.length(0);

    await fillUssd(el);
    fired = error.next();
    clickSubmit(el);
    event = await fired;
    expect(event.target).to.equal(el);
    expect(event.detail).to.deep.equal({
      paymentType: 'USSD',
      code: 'http',
      message: 'Payments are paused until 02:00',
      retryable: true,
    });
    expect(calls).to.have.length(1);
    expect(error.calls).to.have.length(2);
    expect(initiated.calls).to.have.length(0);
  });

  it('keeps the element on re-render, updating its properties and swapping the handlers', async () => {
    stubFetch(route({ session: () => json(ussdEnvelope()) }));
    const first = recorder<'pay-initiated'>();
    const second = recorder<'pay-initiated'>();
    const el = await render({ sessionUrl: SESSION_URL, amount: '5000', onPayInitiated: first.handler });

    const again = await render({
      sessionUrl: SESSION_URL,
      amount: '7500',
      banks: BANKS,
      onPayInitiated: second.handler,
    });
    expect(again).to.equal(el);
    expect(el.amount).to.equal('7500');
    expect(el.banks).to.equal(BANKS);

    await fillUssd(el);
    const fired = second.next();
    clickSubmit(el);
    await fired;
    expect(second.calls).to.have.length(1);
    expect(first.calls).to.have.length(0);

    flushSync(() => reactRoot.unmount());
    expect(el.isConnected).to.equal(false);
    reactRoot = createRoot(container); // afterEach unmounts again
  });
});
