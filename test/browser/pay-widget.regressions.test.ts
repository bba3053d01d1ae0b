/**
 * Behaviours a code review found broken once: each test here failed before its fix.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import {
  bankSearch,
  button,
  chooseBank,
  control,
  errorBody,
  fillTransfer,
  fillUssd,
  focused,
  idempotencyKeys,
  json,
  nextEvent,
  restoreAll,
  root,
  route,
  SESSION_URL,
  STATUS_URL,
  stubFetch,
  submitUntil,
  text,
  transferEnvelope,
  ussdEnvelope,
  holdTimers,
  widget,
} from './helpers.js';

describe('<pay-widget>', () => {
  afterEach(restoreAll);

  it('keeps the chosen bank selected when a search is typed after choosing twice', async () => {
    const el = await widget();
    await chooseBank(el, '044');
    await chooseBank(el, '057');
    const search = bankSearch(el)!;
    search.value = 'zen';
    search.dispatchEvent(new Event('input'));
    await el.updateComplete;

    const select = control<HTMLSelectElement>(el, 'bankCode');
    expect(select.value).to.equal('057');
    expect(select.selectedOptions[0]!.textContent).to.equal('Zenith Bank');
  });

  it('treats a 409 (the key is still being worked on) as retryable, and retries with the same key', async () => {
    const calls = stubFetch(
      route({
        session: (_call, index) =>
          index === 0
            ? json(errorBody('idempotency_key_in_use', 'This payment is still being started'), 409)
            : json(transferEnvelope()),
      }),
    );
    const el = await widget();
    await fillTransfer(el);
    const error = await submitUntil(el, 'pay-error');
    expect(error.detail.retryable).to.equal(true);

    const initiated = nextEvent(el, 'pay-initiated');
    button(el, 'Try again')!.click();
    await initiated;
    const [first, second] = idempotencyKeys(calls);
    expect(second).to.equal(first);
  });

  it('does not poll or fire pay-complete when a pay-initiated listener resets the widget', async () => {
    const calls = stubFetch(route({ session: () => json(ussdEnvelope()), status: () => json({ status: 'SUCCESS' }) }));
    const el = await widget({ 'session-url': SESSION_URL, 'status-url': STATUS_URL });
    let completed = 0;
    el.addEventListener('pay-initiated', () => el.reset());
    el.addEventListener('pay-complete', () => completed++);
    const timers = holdTimers();
    await fillUssd(el);
    await submitUntil(el, 'pay-initiated');
    expect(timers.pending(), 'no look-up scheduled').to.equal(0);
    timers.fire();

    expect(calls.filter((call) => call.url.pathname === STATUS_URL)).to.have.length(0);
    expect(completed).to.equal(0);
    expect(control(el, 'fullName'), 'back on the form').to.exist;
  });

  it('sends one request when a pay-submit listener submits again', async () => {
    const calls = stubFetch(route({ session: () => json(transferEnvelope()) }));
    const el = await widget();
    let initiatedCount = 0;
    el.addEventListener('pay-submit', () => el.submit(), { once: true });
    el.addEventListener('pay-initiated', () => initiatedCount++);
    await fillTransfer(el);
    await submitUntil(el, 'pay-initiated');

    // A submit sends its request before it returns: a second one would be recorded by now.
    expect(calls).to.have.length(1);
    expect(initiatedCount).to.equal(1);
  });

  it('focuses the first field after Edit details when the server faulted a field the form does not show', async () => {
    stubFetch(
      route({
        session: () => json(errorBody('order_refused', 'Amount out of range', { amount: 'Choose 500 to 500000' }), 422),
      }),
    );
    const el = await widget();
    await fillTransfer(el);
    await submitUntil(el, 'pay-error');
    expect(text(el)).to.contain('Choose 500 to 500000');

    button(el, 'Edit details')!.click();
    await el.updateComplete;
    expect(focused(el)).to.equal(root(el).querySelector('input:checked'));
  });

  it('offers a way back from the instructions: "Pay another way" resets for a new payment', async () => {
    stubFetch(route({ session: () => json(ussdEnvelope()) }));
    const el = await widget();
    await fillUssd(el);
    const { detail } = await submitUntil(el, 'pay-initiated');

    const reset = nextEvent(el, 'pay-reset');
    button(el, 'Pay another way')!.click();
    expect((await reset).detail).to.deep.equal({ paymentType: 'USSD', paymentReference: detail.paymentReference });
    await el.updateComplete;
    expect(control(el, 'fullName').value, 'typed values stay').to.equal('Ada Obi');
  });

  it("shows the server's amount, even when the page changes the amount afterwards", async () => {
    stubFetch(route({ session: () => json(transferEnvelope()) }));
    const el = await widget({ 'session-url': SESSION_URL, amount: '5000' });
    await fillTransfer(el);
    await submitUntil(el, 'pay-initiated');

    el.amount = '9999';
    await el.updateComplete;
    expect(text(el)).to.contain('7,250');
    expect(text(el)).not.to.contain('9,999');
    expect(text(el)).not.to.contain('5,000');
  });

  it('does not pull focus away from the page when the page calls reset()', async () => {
    stubFetch(route({ session: () => json(transferEnvelope()) }));
    const page = await fixture<HTMLDivElement>(html`<div>
      <button id="outside">Outside</button>
      <pay-widget session-url=${SESSION_URL}></pay-widget>
    </div>`);
    const el = page.querySelector('pay-widget')!;
    await fillTransfer(el);
    await submitUntil(el, 'pay-initiated');

    const outside = page.querySelector<HTMLButtonElement>('#outside')!;
    outside.focus();
    el.reset();
    await el.updateComplete;
    expect(document.activeElement).to.equal(outside);
  });

  it('announces a repeated message again: a second failed submit says it anew', async () => {
    const el = await widget();
    const status = root(el).querySelector('[role="status"]')!;
    const said: string[] = [];
    new MutationObserver(() => said.push(status.textContent ?? '')).observe(status, {
      childList: true,
      subtree: true,
      characterData: true,
    });

    const times = () => said.filter((text) => text === 'Some fields need correcting').length;
    button(el, 'Continue')!.click();
    await waitUntil(() => times() === 1, 'the first failed submit was not announced');
    button(el, 'Continue')!.click();
    await waitUntil(() => times() === 2, 'the second failed submit was not announced anew');
  });
});
