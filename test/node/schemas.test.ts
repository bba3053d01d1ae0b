/**
 * The wire schemas, without a DOM: the customer fields, the session request, the error body, the
 * status answer, and `readEnvelope` for both payment types (spec 2.2–2.4).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bankCodeSchema,
  emailSchema,
  errorBodySchema,
  fullNameSchema,
  mobileNumberSchema,
  readEnvelope,
  sessionRequestSchema,
  statusResponseSchema,
} from '../../src/contract/schemas.js';
import { isValidField, PAYMENT_REFERENCE } from '../../src/contract/rules.js';

const ussdPayments = {
  paymentReference: 'ORD-1001',
  linkingReference: 'LNK-77881',
  providerreference: 'PRV-55210',
  ussdDailCode: '*737*000*4412#',
};
const transferPayments = {
  paymentReference: 'ORD-1002',
  walletName: 'Acme Stores / Ada Obi',
  wallet: 'WAL-300921',
  bankName: 'Providus Bank',
  accountNumber: '9900112233',
};
const envelope = (payments: unknown, code: string | null = null, message: string | null = null) => ({
  status: 'SUCCESS',
  data: { code, message, payments },
});

function accepts(schema: { safeParse(value: unknown): { success: boolean } }, values: unknown[]) {
  for (const value of values) assert.equal(schema.safeParse(value).success, true, `accepts ${JSON.stringify(value)}`);
}
function rejects(schema: { safeParse(value: unknown): { success: boolean } }, values: unknown[]) {
  for (const value of values) assert.equal(schema.safeParse(value).success, false, `rejects ${JSON.stringify(value)}`);
}

describe('schemas', () => {
  describe('customer fields', () => {
    it('fullName: 2 to 100 characters once trimmed', () => {
      accepts(fullNameSchema, ['Ada Obi', 'Jo', 'x'.repeat(100), '  Ada  ']);
      rejects(fullNameSchema, ['', ' ', 'A', ' A ', 'x'.repeat(101), 42, undefined]);
      assert.equal(fullNameSchema.parse('  Ada Obi '), 'Ada Obi');
    });

    it('fullName: no control or format characters, line breaks or bidi overrides, in the browser and on the server', () => {
      const bad = [
        'Ada\u0000Obi',
        'Ada\r\nBcc: x',
        'Ada\nObi',
        'Ada\tObi',
        'Ada\u007fObi',
        'Ada\u0085Obi',
        '\u202eiboO adA',
        'Ada \u2066Obi\u2069',
        'Ada\u200fObi',
        'Ada\u2028Obi',
        'Ada\u00adObi',
        'Ada\ufeffObi',
        'Ada\ud800Obi',
        ' \u0000\u202e<img src=x>\r\nX',
      ];
      rejects(fullNameSchema, bad);
      for (const value of bad)
        assert.equal(isValidField('fullName', value), false, `browser rejects ${JSON.stringify(value)}`);
      // Letters of every script, accents, apostrophes, and the ZWNJ/ZWJ some scripts need.
      const good = [
        'Zoë Ångström-Ñúñez',
        "Ngozi O'Neil",
        '李小龍',
        'Ада Обі',
        'نیما\u200cمحمدی',
        'क्\u200dष',
        '😀'.repeat(100),
      ];
      accepts(fullNameSchema, good);
      for (const value of good)
        assert.equal(isValidField('fullName', value), true, `browser accepts ${JSON.stringify(value)}`);
    });

    it('email: an address, trimmed', () => {
      accepts(emailSchema, ['ada@example.com', 'a.b+pay@mail.example.ng', ' ada@example.com ']);
      rejects(emailSchema, ['', 'ada', 'ada@', 'ada@example', '@example.com', 'ada example@x.com', null]);
      assert.equal(emailSchema.parse(' ada@example.com '), 'ada@example.com');
    });

    it('mobileNumber: 7 to 15 digits, an optional +, separators removed', () => {
      accepts(mobileNumberSchema, ['08012345678', '+2348012345678', '0801 234-5678', '(0801) 234.5678', '1234567']);
      rejects(mobileNumberSchema, ['', '123456', '1'.repeat(16), '0801234567a', '++2348012345678', '080+12345678']);
      assert.equal(mobileNumberSchema.parse('+234 (801) 234-5678'), '+2348012345678');
    });

    it('bankCode: a short digit string', () => {
      accepts(bankCodeSchema, ['058', '044', '000013', '999']);
      rejects(bankCodeSchema, ['', '05', '0580000', 'GTB', '05a', 58]);
    });
  });

  describe('sessionRequestSchema', () => {
    const customer = { fullName: 'Ada Obi', email: 'ada@example.com', mobileNumber: '0801 234 5678' };

    it('requires bankCode for USSD', () => {
      assert.equal(sessionRequestSchema.safeParse({ paymentType: 'USSD', ...customer }).success, false);
      const parsed = sessionRequestSchema.parse({ paymentType: 'USSD', ...customer, bankCode: '058' });
      assert.deepEqual(parsed, { paymentType: 'USSD', ...customer, mobileNumber: '08012345678', bankCode: '058' });
    });

    it('drops bankCode from a TRANSFER request', () => {
      const parsed = sessionRequestSchema.parse({ paymentType: 'TRANSFER', ...customer, bankCode: '058' });
      assert.equal('bankCode' in parsed, false);
    });

    it('accepts the hints and checks their shape', () => {
      const hints = { amount: '5000.50', currency: 'NGN', country: 'NG', paymentReference: 'ORD-1001' };
      assert.deepEqual(sessionRequestSchema.parse({ paymentType: 'TRANSFER', ...customer, ...hints }), {
        paymentType: 'TRANSFER',
        ...customer,
        mobileNumber: '08012345678',
        ...hints,
      });
      for (const bad of [
        { amount: '5,000' },
        { amount: '1.234' },
        { currency: 'NAIRA' },
        { country: 'NGA' },
        { paymentReference: 'has space' },
      ]) {
        assert.equal(
          sessionRequestSchema.safeParse({ paymentType: 'TRANSFER', ...customer, ...bad }).success,
          false,
          JSON.stringify(bad),
        );
      }
    });

    it('takes the one paymentReference rule: up to 128 of letters, digits, . _ : / -', () => {
      const request = (paymentReference: string) => ({ paymentType: 'TRANSFER', ...customer, paymentReference });
      for (const good of ['INV/2024/0042', 'order:42.a_b-c', 'r'.repeat(128)]) {
        assert.equal(PAYMENT_REFERENCE.test(good), true, good);
        assert.equal(sessionRequestSchema.parse(request(good)).paymentReference, good);
      }
      for (const bad of ['', 'r'.repeat(129), 'a b', 'a?b', 'a#b', 'a&b', 'a\\b', 'é']) {
        assert.equal(PAYMENT_REFERENCE.test(bad), false, bad);
        assert.equal(sessionRequestSchema.safeParse(request(bad)).success, false, bad);
      }
    });

    it('rejects an unknown payment type', () => {
      assert.equal(sessionRequestSchema.safeParse({ paymentType: 'CARD', ...customer }).success, false);
    });
  });

  describe('errorBodySchema', () => {
    it('accepts the contract’s failure body, with or without fields', () => {
      accepts(errorBodySchema, [
        { status: 'ERROR', error: { code: 'upstream', message: 'Try later' } },
        { status: 'ERROR', error: { code: 'validation', message: 'Bad', fields: { email: 'Blocked' } } },
      ]);
    });

    it('rejects anything else', () => {
      rejects(errorBodySchema, [
        undefined,
        '<html>',
        { status: 'FAILED', error: { code: 'x', message: 'y' } },
        { status: 'ERROR', error: { code: 'x' } },
        { status: 'ERROR', error: { code: 'x', message: 'y', fields: { email: 1 } } },
      ]);
    });
  });

  describe('statusResponseSchema', () => {
    it('accepts PENDING, SUCCESS and FAILED, with an optional message', () => {
      accepts(statusResponseSchema, [
        { status: 'PENDING' },
        { status: 'SUCCESS', message: 'Paid' },
        { status: 'FAILED', message: null },
      ]);
      rejects(statusResponseSchema, [{ status: 'DONE' }, {}, { status: 'SUCCESS', message: 1 }]);
    });
  });

  describe('readEnvelope', () => {
    it('reads a USSD envelope into instructions, renaming the spec’s spellings', () => {
      assert.deepEqual(readEnvelope(envelope(ussdPayments), 'USSD'), {
        ok: true,
        message: undefined,
        instructions: {
          paymentType: 'USSD',
          paymentReference: 'ORD-1001',
          ussdDialCode: '*737*000*4412#',
          linkingReference: 'LNK-77881',
          providerReference: 'PRV-55210',
        },
      });
    });

    it('reads a TRANSFER envelope into instructions, with its message', () => {
      assert.deepEqual(readEnvelope(envelope(transferPayments, '00', 'Account opened'), 'TRANSFER'), {
        ok: true,
        message: 'Account opened',
        instructions: { paymentType: 'TRANSFER', ...transferPayments },
      });
    });

    it('ignores extra fields anywhere', () => {
      const extra = {
        status: 'SUCCESS',
        requestId: 'abc',
        data: {
          code: null,
          message: null,
          traceId: 't-1',
          payments: { ...ussdPayments, amount: '5000', expiresAt: '2030-01-01T00:00:00Z' },
        },
      };
      const result = readEnvelope(extra, 'USSD');
      assert.equal(result.ok, true);
      assert.ok(result.ok);
      assert.deepEqual(Object.keys(result.instructions).sort(), [
        'linkingReference',
        'paymentReference',
        'paymentType',
        'providerReference',
        'ussdDialCode',
      ]);
      const transfer = readEnvelope({ ...envelope({ ...transferPayments, currency: 'NGN' }), meta: 1 }, 'TRANSFER');
      assert.ok(transfer.ok);
      assert.equal('currency' in transfer.instructions, false);
    });

    for (const field of Object.keys(ussdPayments)) {
      it(`fails a USSD success envelope without ${field}, keeping the gateway's message`, () => {
        const { [field]: _, ...payments } = ussdPayments as Record<string, string>;
        assert.deepEqual(readEnvelope(envelope(payments, null, ' USSD is down '), 'USSD'), {
          ok: false,
          reason: 'missing-fields',
          message: 'USSD is down',
        });
      });
    }

    for (const field of Object.keys(transferPayments)) {
      it(`fails a TRANSFER success envelope without ${field}`, () => {
        const { [field]: _, ...payments } = transferPayments as Record<string, string>;
        assert.deepEqual(readEnvelope(envelope(payments, '00', 'Not opened'), 'TRANSFER'), {
          ok: false,
          reason: 'missing-fields',
          message: 'Not opened',
        });
      });
    }

    it('fails empty or malformed payment fields', () => {
      const cases: [Record<string, unknown>, 'USSD' | 'TRANSFER'][] = [
        [{ ...ussdPayments, linkingReference: '' }, 'USSD'],
        [{ ...ussdPayments, ussdDailCode: '737*000*4412' }, 'USSD'],
        [{ ...ussdPayments, ussdDailCode: '*737*<b>#' }, 'USSD'],
        [{ ...transferPayments, accountNumber: 'ACC-12' }, 'TRANSFER'],
        [{ ...transferPayments, bankName: null }, 'TRANSFER'],
      ];
      for (const [payments, type] of cases) {
        const result = readEnvelope(envelope(payments), type);
        assert.equal(result.ok, false, JSON.stringify(payments));
        assert.equal(!result.ok && result.reason, 'missing-fields');
      }
    });

    it('fails an envelope whose payments are for the other type', () => {
      assert.equal(readEnvelope(envelope(transferPayments), 'USSD').ok, false);
      assert.equal(readEnvelope(envelope(ussdPayments), 'TRANSFER').ok, false);
    });

    it('fails a success envelope without data or payments', () => {
      for (const body of [{ status: 'SUCCESS' }, { status: 'SUCCESS', data: null }, { status: 'SUCCESS', data: {} }]) {
        const result = readEnvelope(body, 'TRANSFER');
        assert.deepEqual(result, { ok: false, reason: 'missing-fields', message: undefined }, JSON.stringify(body));
      }
    });

    it('reports a status other than SUCCESS as not-success, with the message', () => {
      const failed = { status: 'FAILED', data: { code: '51', message: 'Limit exceeded', payments: ussdPayments } };
      assert.deepEqual(readEnvelope(failed, 'USSD'), { ok: false, reason: 'not-success', message: 'Limit exceeded' });
      assert.deepEqual(readEnvelope({ status: 'success', data: envelope(ussdPayments).data }, 'USSD'), {
        ok: false,
        reason: 'not-success',
        message: undefined,
      });
    });

    it('reports a body that is not an envelope', () => {
      for (const body of [
        undefined,
        null,
        '',
        'SUCCESS',
        42,
        [],
        {},
        { data: envelope(ussdPayments).data },
        { status: 200 },
      ]) {
        assert.deepEqual(
          readEnvelope(body, 'USSD'),
          { ok: false, reason: 'not-an-envelope', message: undefined },
          String(body),
        );
      }
    });

    it('treats a blank message as none', () => {
      const result = readEnvelope({ status: 'FAILED', data: { code: null, message: '   ', payments: null } }, 'USSD');
      assert.deepEqual(result, { ok: false, reason: 'not-success', message: undefined });
    });
  });
});
