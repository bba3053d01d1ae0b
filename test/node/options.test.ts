// The option checks every factory shares (src/server/options.ts): an option the types allow but that
// cannot work is refused when the factory is called, naming the factory and the option.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertStore } from '../../src/server/options.js';
import { optionChecks } from '../../src/contract/option-checks.js';

const checks = optionChecks('createThing');

describe('optionChecks', () => {
  it('positiveMs: absent or a positive finite number; otherwise a TypeError naming factory and option', () => {
    for (const value of [undefined, 1, 0.5, 60_000]) checks.positiveMs('timeoutMs', value);
    for (const value of [0, -1, Infinity, NaN, '1000', null]) {
      assert.throws(() => checks.positiveMs('timeoutMs', value), {
        name: 'TypeError',
        message: 'createThing: timeoutMs must be a positive finite number',
      });
    }
  });

  it('nonNegativeMs accepts 0 and refuses negatives and non-numbers', () => {
    checks.nonNegativeMs('recheckAfterMs', 0);
    for (const value of [-1, Infinity, '0'])
      assert.throws(
        () => checks.nonNegativeMs('recheckAfterMs', value),
        /createThing: recheckAfterMs must be a finite number, 0 or more/,
      );
  });

  it('optionalFunction and requiredFunction', () => {
    checks.optionalFunction('onEvent', undefined);
    checks.optionalFunction('onEvent', () => {});
    assert.throws(() => checks.optionalFunction('onEvent', 'log'), /createThing: onEvent must be a function/);
    assert.throws(() => checks.requiredFunction('onPaid', undefined), /createThing: onPaid must be a function/);
  });

  it('absoluteUrl refuses a relative or non-string URL', () => {
    checks.absoluteUrl('webhookUrl', 'http://127.0.0.1:3000/hook');
    for (const value of ['/hook', 'shop.example', 42])
      assert.throws(() => checks.absoluteUrl('webhookUrl', value), /webhookUrl must be an absolute URL/);
  });

  it('fail throws the factory’s TypeError', () => {
    assert.throws(() => checks.fail('give either a or b'), {
      name: 'TypeError',
      message: 'createThing: give either a or b',
    });
  });
});

describe('assertStore', () => {
  it('names every missing method, so a store without atomic claims is refused when the handler is made', () => {
    assertStore(
      { get() {}, set() {}, claim() {}, release() {} },
      ['claim', 'release', 'get', 'set'],
      'the idempotency store',
    );
    assert.throws(
      () => assertStore({ get() {}, set() {} }, ['claim', 'release', 'get', 'set'], 'the idempotency store'),
      {
        name: 'TypeError',
        message: 'the idempotency store lacks claim(), release()',
      },
    );
    assert.throws(() => assertStore(undefined, ['get'], 'the payments store'), /the payments store lacks get\(\)/);
  });
});
