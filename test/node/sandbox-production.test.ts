// Issue 16 item 10, "The sandbox in production": what keeps the offline sandbox from passing for
// the real gateway where money is meant to move.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY, type SandboxGateway } from '../../src/sandbox/index.js';

const URL_ = 'https://sandbox.test/api/v2/payments/initiates';
let counter = 0;

function body(changes: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    publicKey: SANDBOX_PUBLIC_KEY,
    amount: '1500',
    fullName: 'Ada Obi',
    mobileNumber: '08030000000',
    email: 'ada@example.ng',
    currency: 'NGN',
    country: 'NG',
    paymentReference: `prod-${counter}`,
    callbackUrl: 'https://shop.test/cb',
    redirectUrl: 'https://shop.test/done',
    paymentType: 'USSD',
    bankCode: '058',
    ...changes,
  };
}

function initiate(sandbox: SandboxGateway, payload: unknown): Promise<Response> {
  return sandbox(
    new Request(URL_, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_ACCESS_TOKEN}` },
      body: JSON.stringify(payload),
    }),
  );
}

describe('createSandboxGateway in production (issue 16 item 10)', () => {
  const before = process.env.NODE_ENV;
  afterEach(() => {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  });

  it('refuses to start with NODE_ENV=production unless allowInProduction is passed', () => {
    process.env.NODE_ENV = 'production';
    assert.throws(() => createSandboxGateway(), (error: Error) => error instanceof TypeError && /NODE_ENV=production/.test(error.message) && /allowInProduction/.test(error.message));
    const allowed = createSandboxGateway({ allowInProduction: true });
    assert.equal(typeof allowed, 'function');
    process.env.NODE_ENV = 'development';
    assert.equal(typeof createSandboxGateway(), 'function');
  });
});

describe('createSandboxGateway: dial codes no bank answers (issue 16 item 10)', () => {
  it('never hands out a bank’s real USSD short code: *000*, the bank code, the payment number', async () => {
    const sandbox = createSandboxGateway();
    for (const bankCode of ['058', '057', '082', '044', '999']) {
      const answer = (await (await initiate(sandbox, body({ bankCode }))).json()) as { data: { payments: { ussdDailCode: string } } };
      const code = answer.data.payments.ussdDailCode;
      assert.match(code, new RegExp(`^\\*000\\*${bankCode}\\*\\d{4,}#$`), code);
      for (const real of ['*737*', '*966*', '*7111*', '*901*']) assert.ok(!code.includes(real), `${code} dials a bank's ${real}`);
    }
  });
});
