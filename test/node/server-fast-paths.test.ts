/**
 * The session handler's fast paths give the same results as the slow ones they skip: the
 * synchronous SHA-256 reference, the redactor's one-scan screen, and the deadline's abort flag.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AbortFlag, sleep } from '../../src/server/http/deadline.js';
import { createRedactor } from '../../src/server/http/redact.js';
import { referenceForKey, subtleReferenceForKey } from '../../src/server/session/order.js';

describe('referenceForKey', () => {
  it('is synchronous in Node and equals the Web Crypto digest', async () => {
    for (const key of ['bench-key-1-abcdefgh', '0f8fad5b-d9cb-469f-a165-70867728950e', '!~'.repeat(120)]) {
      const reference = referenceForKey(key);
      assert.equal(typeof reference, 'string');
      assert.equal(reference, await subtleReferenceForKey(key));
      assert.match(reference as string, /^pw-[0-9a-f]{32}$/);
    }
  });
});

describe('createRedactor screen', () => {
  const secrets = ['pk.live+(a|b)*?[x]{2}^$\\/-', 'sk_LIVE/abc+def=='];
  const slow = (value: string, extra: readonly string[] = []) => {
    // The same passes with no screen: every form of every secret replaced, in order.
    const redactor = createRedactor([...secrets, ...extra]);
    return redactor.text(value);
  };

  it('redacts secrets holding RegExp syntax, in every encoding, and leaves other text alone', () => {
    const redactor = createRedactor(secrets);
    for (const secret of secrets) {
      for (const form of [
        secret,
        JSON.stringify(secret).slice(1, -1),
        encodeURIComponent(secret),
        new URLSearchParams({ s: secret }).toString().slice(2),
      ]) {
        const text = redactor.text(`before ${form} after`);
        assert.equal(text, 'before [redacted] after', form);
        assert.equal(text, slow(`before ${form} after`));
      }
    }
    for (const clean of ['', 'Payment initiated', 'pk.live+a', 'SK_live/abc+def==', '*901*058*1234#']) {
      assert.equal(redactor.text(clean), clean);
    }
    assert.equal(redactor.text('BEARER abc.def'), 'BEARER [redacted]');
  });

  it('sees a rotating token from its first use, and forgets none it should keep', () => {
    const redactor = createRedactor([]);
    assert.equal(redactor.text('t=tok_one/1'), 't=tok_one/1');
    redactor.add('tok_one/1');
    assert.equal(redactor.text('t=tok_one/1'), 't=[redacted]');
    redactor.add('tok_one/1');
    redactor.add('tok_two');
    assert.equal(redactor.text('tok_one%2F1 tok_two'), '[redacted] [redacted]');
  });

  it('withExtra redacts the extra values as text(value, extra) does', () => {
    const redactor = createRedactor(secrets);
    const extra = ['ada@example.ng', '+2348030000000', '2348030000000', 'Ada Obi'];
    const redact = redactor.withExtra(extra);
    for (const value of [
      'Ada Obi <ada@example.ng>',
      'call +2348030000000',
      `key ${secrets[0]} for Ada%20Obi`,
      'nothing here',
    ]) {
      assert.equal(redact(value), redactor.text(value, extra));
    }
    assert.equal(redact('Ada Obi'), '[redacted]');
  });
});

describe('AbortFlag', () => {
  it('calls each listener once, at once when already aborted, and not after unsubscribing', async (t) => {
    const flag = new AbortFlag();
    const calls: string[] = [];
    flag.onAbort(() => calls.push('a'));
    const off = flag.onAbort(() => calls.push('b'));
    off();
    flag.abort();
    flag.abort();
    flag.onAbort(() => calls.push('c'));
    assert.deepEqual(calls, ['a', 'c']);
    assert.equal(flag.aborted, true);
    // The clock is mocked and never ticked: only the aborted flag can end this sleep.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    await sleep(10_000, flag);
  });
});
