// The element's pure helpers, without a DOM: amount formatting, the language it speaks, and which
// screen PaymentController.render picks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatAmount } from '../../src/element/format-amount.js';
import { wantedLocale } from '../../src/element/locale-controller.js';
import { PaymentController, type Screens } from '../../src/element/payment-controller.js';

describe('formatAmount', () => {
  it('writes the amount for the language and country, or as written by the language tag', () => {
    assert.equal(formatAmount('5000', 'NGN', 'en', 'NG'), '₦5,000.00');
    assert.equal(formatAmount('5000', 'USD', 'en-US', 'NG'), '$5,000.00');
  });
  it('gives nothing for no amount, and the plain figures for a currency the browser does not know', () => {
    assert.equal(formatAmount('', 'NGN', 'en', 'NG'), '');
    assert.equal(formatAmount('abc', 'NGN', 'en', 'NG'), '');
    assert.equal(formatAmount('5000', 'N1', 'en', 'NG'), 'N1 5000');
  });
});

describe('wantedLocale', () => {
  it('takes locale first, then the page language, else English', () => {
    assert.equal(wantedLocale('fr', 'yo', false), 'fr');
    assert.equal(wantedLocale('', 'yo-NG', false), 'yo-NG');
    assert.equal(wantedLocale('', '', false), 'en');
  });
  it('ignores what is not a language tag, and a language without strings unless the page gave some', () => {
    assert.equal(wantedLocale('__proto__', 'fr', false), 'fr');
    assert.equal(wantedLocale('de', '', false), 'en');
    assert.equal(wantedLocale('de', '', true), 'de');
  });
});

describe('PaymentController.render', () => {
  const host = { addController() {}, requestUpdate() {} } as unknown as ConstructorParameters<
    typeof PaymentController
  >[0];
  const screens: Screens<string> = {
    form: (busy) => (busy ? 'busy form' : 'form'),
    ussd: () => 'ussd',
    transfer: () => 'transfer',
    complete: (state) => `complete ${state.status}`,
    error: (state) => `error ${state.failure.code}`,
  };
  it('picks the screen of the state, the form while it is submitting', () => {
    const payment = new PaymentController(host, () => ({
      initiate: undefined,
      sessionUrl: undefined,
      timeoutMs: 1,
      statusUrl: undefined,
      describe: () => '',
      onShow() {},
      keep: undefined,
    }));
    assert.equal(payment.render(screens), 'form');
    const request = { paymentType: 'USSD' } as never;
    payment.state = { kind: 'submitting', request };
    assert.equal(payment.render(screens), 'form', 'not yet shown busy');
    payment.hostUpdate();
    assert.equal(payment.render(screens), 'busy form');
    payment.state = { kind: 'error', request, failure: { code: 'http', message: undefined, retryable: true } };
    assert.equal(payment.render(screens), 'error http');
  });
});
