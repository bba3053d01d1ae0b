// Issue 16 item 10, "The sandbox in production": what keeps the offline sandbox from passing for
// the real gateway where money is meant to move.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { productionRefusal } from '../../src/sandbox/environment.js';
import {
  createSandboxGateway,
  SANDBOX_ACCESS_TOKEN,
  SANDBOX_PUBLIC_KEY,
  type SandboxGateway,
} from '../../src/sandbox/index.js';
import { initiationBody } from './gateway-fixtures.js';

const URL_ = 'https://sandbox.test/api/v2/payments/initiates';
let counter = 0;

/** A USSD initiation the sandbox accepts, with `changes`. */
function body(changes: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    ...initiationBody(`prod-${counter}`),
    publicKey: SANDBOX_PUBLIC_KEY,
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
    assert.throws(
      () => createSandboxGateway(),
      (error: Error) =>
        error instanceof TypeError &&
        /NODE_ENV=production/.test(error.message) &&
        /allowInProduction/.test(error.message),
    );
    const allowed = createSandboxGateway({ allowInProduction: true });
    assert.equal(typeof allowed, 'function');
    process.env.NODE_ENV = 'development';
    assert.equal(typeof createSandboxGateway(), 'function');
  });

  it('an environment it may not read (Deno with --allow-env=PORT) is taken as production, said in one line (issue 27)', () => {
    const notCapable = () => {
      throw Object.assign(new Error('Requires env access to "NODE_ENV", run again with the --allow-env flag'), {
        name: 'NotCapable',
      });
    };
    const refusal = productionRefusal(notCapable);
    assert.equal(
      refusal,
      'could not read NODE_ENV (NotCapable: e.g. Deno without --allow-env=NODE_ENV), so it is taken as production: refusing to start, as the sandbox moves no money. Allow reading NODE_ENV, or pass allowInProduction: true for a public demo.',
    );
    assert.equal(
      productionRefusal(() => undefined),
      undefined,
      'no NODE_ENV (workers): not production',
    );
    assert.equal(
      productionRefusal(() => 'test'),
      undefined,
    );
  });
});

describe('createSandboxGateway: dial codes no bank answers (issue 16 item 10)', () => {
  it('never hands out a bank’s real USSD short code: *000*, the bank code, the payment number', async () => {
    const sandbox = createSandboxGateway();
    for (const bankCode of ['058', '057', '082', '044', '999']) {
      const answer = (await (await initiate(sandbox, body({ bankCode }))).json()) as {
        data: { payments: { ussdDailCode: string } };
      };
      const code = answer.data.payments.ussdDailCode;
      assert.match(code, new RegExp(`^\\*000\\*${bankCode}\\*\\d{4,}#$`), code);
      for (const real of ['*737*', '*966*', '*7111*', '*901*'])
        assert.ok(!code.includes(real), `${code} dials a bank's ${real}`);
    }
  });
});

describe('createSandboxGateway: the gateway’s field rules (issue 16 item 10)', () => {
  const sandbox = createSandboxGateway();

  async function refusedFields(changes: Record<string, unknown>): Promise<string> {
    const response = await initiate(sandbox, body(changes));
    assert.equal(response.status, 400, JSON.stringify(changes));
    const answer = (await response.json()) as { status: string; data: { code: string; message: string } };
    assert.equal(answer.status, 'ERROR');
    assert.equal(answer.data.code, 'S12');
    return answer.data.message;
  }

  it('refuses callbackUrl and redirectUrl that are not http(s) URLs', async () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'ftp://shop.test/cb', 'file:///etc/passwd']) {
      assert.match(await refusedFields({ callbackUrl: url }), /callbackUrl/, url);
      assert.match(await refusedFields({ redirectUrl: url }), /redirectUrl/, url);
    }
  });

  it('refuses an email, a mobile number, a name, a currency or a country that cannot be one', async () => {
    assert.match(await refusedFields({ email: 'e' }), /email/);
    assert.match(await refusedFields({ email: 'ada@' }), /email/);
    assert.match(await refusedFields({ mobileNumber: 'call me' }), /mobileNumber/);
    assert.match(await refusedFields({ fullName: 'A\u0000\u202e' }), /fullName/);
    assert.match(await refusedFields({ currency: 'naira' }), /currency/);
    assert.match(await refusedFields({ country: 'Nigeria' }), /country/);
    const several = await refusedFields({ email: 'e', callbackUrl: 'javascript:alert(1)' });
    assert.match(several, /^Invalid\/Missing parameters = /);
    assert.match(several, /email/);
    assert.match(several, /callbackUrl/);
  });

  it('still accepts the spec’s example values', async () => {
    assert.equal((await initiate(sandbox, body({ callbackUrl: 'http://localhost:5173/pay/callback' }))).status, 200);
    assert.equal(
      (await initiate(sandbox, body({ paymentType: 'TRANSFER', bankCode: undefined, mobileNumber: '+2348030000000' })))
        .status,
      200,
    );
  });
});

describe('createSandboxGateway: bounded memory (issue 16 item 10)', () => {
  const payment = () => body() as { paymentReference: string };

  it('keeps at most maxPayments, forgetting the oldest settled payments first', async () => {
    const sandbox = createSandboxGateway({ maxPayments: 3 });
    const [a, b, c, d] = [payment(), payment(), payment(), payment()] as const;
    for (const payload of [a, b, c]) assert.equal((await initiate(sandbox, payload)).status, 200);
    sandbox.setStatus(c.paymentReference, 'SUCCESS');
    sandbox.setStatus(b.paymentReference, 'FAILED');
    assert.equal((await initiate(sandbox, d)).status, 200);
    // c settled first: it goes, though a (pending) is older.
    assert.equal(sandbox.lookup(c.paymentReference), undefined);
    for (const kept of [a, b, d]) assert.ok(sandbox.lookup(kept.paymentReference), kept.paymentReference);
  });

  it('forgets the oldest pending payment only when every payment kept is pending', async () => {
    const sandbox = createSandboxGateway({ maxPayments: 2 });
    const [a, b, c] = [payment(), payment(), payment()] as const;
    for (const payload of [a, b, c]) assert.equal((await initiate(sandbox, payload)).status, 200);
    assert.equal(sandbox.lookup(a.paymentReference), undefined);
    assert.equal(sandbox.lookup(b.paymentReference)?.status, 'PENDING');
    assert.equal(sandbox.lookup(c.paymentReference)?.status, 'PENDING');
  });

  it('refuses a maxPayments that is not a positive whole number', () => {
    for (const maxPayments of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => createSandboxGateway({ maxPayments }), TypeError, String(maxPayments));
    }
  });
});
