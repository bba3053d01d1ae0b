import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_BANKS } from '../../src/element/banks.js';
import {
  createSandboxGateway,
  MAGIC_AMOUNTS,
  SANDBOX_ACCESS_TOKEN,
  SANDBOX_PUBLIC_KEY,
  USSD_SHORT_CODES,
  type SandboxGateway,
} from '../../src/sandbox/index.js';
import { envelopeSchema, transferPaymentsSchema, ussdPaymentsSchema } from '../../src/contract/schemas.js';
import { createSessionHandler } from '../../src/server/internal.js';
import { PATIENT, post, readError, settled, TRANSFER_REQUEST, turns, USSD_REQUEST } from './server-fixtures.js';

const URL_ = 'https://sandbox.test/api/v2/payments/initiates';
let counter = 0;

function gatewayBody(paymentType: 'USSD' | 'TRANSFER', changes: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    publicKey: SANDBOX_PUBLIC_KEY,
    amount: '1500',
    fullName: 'Ada Obi',
    mobileNumber: '08030000000',
    email: 'ada@example.ng',
    currency: 'NGN',
    country: 'NG',
    paymentReference: `ref-${counter}`,
    callbackUrl: 'https://shop.test/cb',
    redirectUrl: 'https://shop.test/done',
    paymentType,
    ...(paymentType === 'USSD' ? { bankCode: '058' } : {}),
    ...changes,
  };
}

function send(sandbox: SandboxGateway, body: unknown, init: RequestInit & { url?: string } = {}): Promise<Response> {
  return sandbox(
    new Request(init.url ?? URL_, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${SANDBOX_ACCESS_TOKEN}`,
        ...(init.headers as Record<string, string>),
      },
    }),
  );
}

/** A failure answer: JSON, the given status, an envelope with a message. */
async function failure(response: Response, status: number): Promise<string> {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const envelope = envelopeSchema.parse(await response.json());
  assert.notEqual(envelope.status, 'SUCCESS');
  assert.ok(envelope.data?.message);
  return envelope.data.message;
}

describe('createSandboxGateway: authentication and rules', () => {
  const sandbox = createSandboxGateway();

  it('answers 403 "Header Token Missing" without an Authorization header, in the gateway’s shape (issue 27)', async () => {
    for (const url of [URL_, 'https://sandbox.test/api/v3/payments/query/ref-none']) {
      const response = await sandbox(
        new Request(
          url,
          url === URL_
            ? {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(gatewayBody('USSD')),
              }
            : {},
        ),
      );
      assert.equal(response.status, 403, url);
      assert.deepEqual(await response.json(), { message: 'Header Token Missing', error: 'PERMISSION' });
    }
  });

  it('answers 401 with a bearer token it does not accept', async () => {
    for (const authorization of [
      `Basic ${SANDBOX_ACCESS_TOKEN}`,
      'Bearer sk_wrong',
      `Bearer ${SANDBOX_ACCESS_TOKEN}x`,
    ]) {
      const response = await send(sandbox, gatewayBody('USSD'), { headers: { authorization } });
      assert.equal(response.headers.get('www-authenticate'), 'Bearer');
      await failure(response, 401);
    }
  });

  it('accepts the Bearer scheme in any case (RFC 7235), but only with the exact token', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const response = await send(sandbox, gatewayBody('USSD'), {
        headers: { authorization: `${scheme} ${SANDBOX_ACCESS_TOKEN}` },
      });
      assert.equal(response.status, 200, scheme);
    }
    await failure(
      await send(sandbox, gatewayBody('USSD'), {
        headers: { authorization: `bearer ${SANDBOX_ACCESS_TOKEN.toUpperCase()}` },
      }),
      401,
    );
    await failure(
      await send(sandbox, gatewayBody('USSD'), { headers: { authorization: `Bearer${SANDBOX_ACCESS_TOKEN}` } }),
      401,
    );
  });

  it('answers 400, not 403, to a JSON body that is not an object', async () => {
    for (const body of ['null', '[]', '"text"', '42', 'true', JSON.stringify([gatewayBody('USSD')])]) {
      assert.match(await failure(await send(sandbox, body), 400), /object/, body);
    }
  });

  it('answers 400 to an amount that is not above zero', async () => {
    for (const amount of ['0', '0.00', '00', '-5', '']) {
      assert.match(await failure(await send(sandbox, gatewayBody('TRANSFER', { amount })), 400), /amount/, amount);
    }
  });

  it('answers 403 for a wrong or missing publicKey', async () => {
    await failure(await send(sandbox, gatewayBody('USSD', { publicKey: 'pk_other' })), 403);
    await failure(await send(sandbox, gatewayBody('TRANSFER', { publicKey: undefined })), 403);
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    await failure(
      await send(sandbox, gatewayBody('USSD'), { url: 'https://sandbox.test/api/v1/payments/initiates' }),
      404,
    );
    const get = await sandbox(new Request(URL_));
    assert.equal(get.headers.get('allow'), 'POST');
    await failure(get, 405);
  });

  it('serves the path under a prefix', async () => {
    const response = await send(sandbox, gatewayBody('USSD'), {
      url: 'https://sandbox.test/sandbox/api/v2/payments/initiates',
    });
    assert.equal(response.status, 200);
  });

  it('answers 415 for a non-JSON content type and 400 for unreadable JSON', async () => {
    await failure(await send(sandbox, gatewayBody('USSD'), { headers: { 'content-type': 'text/plain' } }), 415);
    await failure(await send(sandbox, '{"publicKey":'), 400);
  });

  it('answers 400 naming the fields that break the spec request', async () => {
    const message = await failure(await send(sandbox, gatewayBody('USSD', { amount: 1500, callbackUrl: 'nope' })), 400);
    assert.match(message, /amount/);
    assert.match(message, /callbackUrl/);
  });

  it('requires bankCode for USSD, as a short digit string', async () => {
    assert.match(await failure(await send(sandbox, gatewayBody('USSD', { bankCode: undefined })), 400), /bankCode/);
    assert.match(await failure(await send(sandbox, gatewayBody('USSD', { bankCode: 'GTB' })), 400), /bankCode/);
  });

  it('refuses bankCode with TRANSFER', async () => {
    assert.match(await failure(await send(sandbox, gatewayBody('TRANSFER', { bankCode: '058' })), 400), /bankCode/);
  });
});

describe('createSandboxGateway: spec-shaped answers', () => {
  it('answers USSD with code null, message null and a dial code no bank answers', async () => {
    const sandbox = createSandboxGateway();
    const body = gatewayBody('USSD');
    const response = await send(sandbox, body);
    assert.equal(response.status, 200);
    const envelope = (await response.json()) as {
      status: string;
      data: { code: unknown; message: unknown; payments: unknown };
    };
    assert.equal(envelope.status, 'SUCCESS');
    assert.equal(envelope.data.code, null);
    assert.equal(envelope.data.message, null);
    const payments = ussdPaymentsSchema.parse(envelope.data.payments);
    assert.deepEqual(Object.keys(envelope.data.payments as object).sort(), [
      'linkingReference',
      'paymentReference',
      'providerreference',
      'ussdDailCode',
    ]);
    assert.equal(payments.paymentReference, body.paymentReference);
    assert.match(payments.ussdDailCode, /^\*000\*058\*\d{4,}#$/);
  });

  it('knows the USSD short code of every default bank that publishes one, and dials none of them: *000*, then the bank code', async () => {
    assert.deepEqual(
      DEFAULT_BANKS.map((bank) => bank.code).filter((code) => !USSD_SHORT_CODES[code]),
      ['090175'],
    );
    const dialled = Object.values(USSD_SHORT_CODES).map((code) => `*${code}`);
    const sandbox = createSandboxGateway();
    for (const bankCode of ['057', '082', '999']) {
      const envelope = (await (await send(sandbox, gatewayBody('USSD', { bankCode }))).json()) as {
        data: { payments: unknown };
      };
      const dialCode = ussdPaymentsSchema.parse(envelope.data.payments).ussdDailCode;
      assert.ok(dialCode.startsWith(`*000*${bankCode}*`));
      assert.equal(
        dialled.some((code) => dialCode.startsWith(`${code}*`) || dialCode.startsWith(`${code}#`)),
        false,
      );
    }
  });

  it('answers TRANSFER with code "00", a message, and a 10-digit wallet and account', async () => {
    const sandbox = createSandboxGateway({ merchantName: 'Ada Books', bankName: 'Wema Bank' });
    const body = gatewayBody('TRANSFER');
    const envelope = (await (await send(sandbox, body)).json()) as {
      status: string;
      data: { code: unknown; message: string; payments: unknown };
    };
    assert.equal(envelope.status, 'SUCCESS');
    assert.equal(envelope.data.code, '00');
    assert.match(envelope.data.message, /account/i);
    const payments = transferPaymentsSchema.parse(envelope.data.payments);
    assert.equal(payments.paymentReference, body.paymentReference);
    assert.match(payments.accountNumber, /^\d{10}$/);
    assert.match(payments.wallet, /^\d{10}$/);
    assert.match(payments.walletName, /Ada Books/);
    assert.equal(payments.bankName, 'Wema Bank');
  });

  it('gives every payment unique references and numbers', async () => {
    const sandbox = createSandboxGateway();
    const seen = { dial: new Set(), linking: new Set(), provider: new Set(), account: new Set(), wallet: new Set() };
    for (let i = 0; i < 150; i += 1) {
      const ussd = (await (await send(sandbox, gatewayBody('USSD'))).json()) as { data: { payments: unknown } };
      const u = ussdPaymentsSchema.parse(ussd.data.payments);
      seen.dial.add(u.ussdDailCode);
      seen.linking.add(u.linkingReference);
      seen.provider.add(u.providerreference);
      const transfer = (await (await send(sandbox, gatewayBody('TRANSFER'))).json()) as { data: { payments: unknown } };
      const t = transferPaymentsSchema.parse(transfer.data.payments);
      seen.account.add(t.accountNumber);
      seen.wallet.add(t.wallet);
    }
    for (const [name, values] of Object.entries(seen)) assert.equal(values.size, 150, name);
  });

  it('answers a repeated paymentReference with retry: true with the same payment, and 409 when it is another payment', async () => {
    const sandbox = createSandboxGateway();
    const body = gatewayBody('USSD');
    const first = await (await send(sandbox, body)).text();
    assert.equal(await (await send(sandbox, { ...body, retry: true })).text(), first);
    await failure(await send(sandbox, { ...body, amount: '99' }), 409);
    await failure(await send(sandbox, { ...body, amount: '99', retry: true }), 409);
  });

  it('takes retry as the published examples send it, the string "false" or "true", as it takes the boolean (issue 27)', async () => {
    const sandbox = createSandboxGateway();
    const body = gatewayBody('TRANSFER', { retry: 'false' });
    const first = await send(sandbox, body);
    assert.equal(first.status, 200);
    const firstText = await first.text();
    assert.equal(await (await send(sandbox, { ...body, retry: 'true' })).text(), firstText, 'the same account again');
    const duplicate = (await (await send(sandbox, body)).json()) as { data: { code: string } };
    assert.equal(duplicate.data.code, 'S18', '"false" on a used reference: a duplicate, as false is');
    assert.match(await failure(await send(sandbox, { ...gatewayBody('USSD'), retry: 'yes' }), 400), /retry/);
  });

  it('answers TRANSFER with payments.amount, a number, as the gateway’s published example does (issue 27)', async () => {
    const answer = (await (
      await send(createSandboxGateway(), gatewayBody('TRANSFER', { amount: '20.50' }))
    ).json()) as { data: { payments: { amount: unknown } } };
    assert.equal(answer.data.payments.amount, 20.5);
  });
});

describe('createSandboxGateway: magic amounts', () => {
  it('documents each magic amount', () => {
    assert.deepEqual(Object.keys(MAGIC_AMOUNTS), ['402', '422', '500', '502', '503', '504']);
  });

  it('402 declines with a FAILED envelope', async () => {
    const response = await send(createSandboxGateway(), gatewayBody('USSD', { amount: '402.00' }));
    assert.equal(await failure(response, 402), 'Insufficient funds');
  });

  it('422 answers SUCCESS without the payment type’s fields', async () => {
    const response = await send(createSandboxGateway(), gatewayBody('TRANSFER', { amount: '422' }));
    assert.equal(response.status, 200);
    const envelope = (await response.json()) as { status: string; data: { payments: unknown } };
    assert.equal(envelope.status, 'SUCCESS');
    assert.equal(transferPaymentsSchema.safeParse(envelope.data.payments).success, false);
  });

  it('500 answers HTTP 500 with a JSON error', async () => {
    assert.match(
      await failure(await send(createSandboxGateway(), gatewayBody('USSD', { amount: '500' })), 500),
      /malfunction/,
    );
  });

  it('502 answers an unreadable body and 503 an empty one', async () => {
    const unreadable = await send(createSandboxGateway(), gatewayBody('USSD', { amount: '502' }));
    assert.equal(unreadable.status, 200);
    await assert.rejects(unreadable.json());
    const empty = await send(createSandboxGateway(), gatewayBody('USSD', { amount: '503' }));
    assert.equal(empty.status, 503);
    assert.equal(await empty.text(), '');
  });

  it('504 answers after slowMs, having made the payment, and stops when the caller aborts', async (t) => {
    // The clock is mocked: slowMs passes when the test ticks it, whatever the machine's load.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const sandbox = createSandboxGateway({ slowMs: 60 });
    const body = gatewayBody('USSD', { amount: '504' });
    const slow = settled(send(sandbox, body));
    await turns();
    t.mock.timers.tick(59);
    await turns();
    assert.equal(slow.done, false, 'no answer before slowMs');
    assert.equal(sandbox.lookup(String(body.paymentReference))?.status, 'PENDING', 'the payment is made meanwhile');
    t.mock.timers.tick(1);
    assert.equal((await slow.promise).status, 200);

    const stuck = createSandboxGateway({ slowMs: 60_000 });
    const controller = new AbortController();
    const pending = send(stuck, gatewayBody('USSD', { amount: '504' }), { signal: controller.signal });
    await turns();
    controller.abort();
    // No timer can fire now: only the abort can end the wait.
    await assert.rejects(pending, { name: 'AbortError' });
  });

  it('adds latencyMs to every answer', async () => {
    const started = performance.now();
    await send(createSandboxGateway({ latencyMs: 40 }), gatewayBody('TRANSFER'));
    assert.ok(performance.now() - started >= 35);
  });

  it('maps each magic amount to the documented session-handler answer', async () => {
    const sandbox = createSandboxGateway({ slowMs: 60_000 });
    const expected = [
      ['402', 402, 'payment_declined'],
      ['422', 502, 'invalid_gateway_response'],
      ['500', 502, 'gateway_error'],
      ['502', 502, 'invalid_gateway_response'],
      ['503', 502, 'gateway_error'],
      ['504', 504, 'gateway_timeout'],
    ] as const;
    // A 50 ms wait for the gateway only where the sandbox's slow answer (a minute) is under test:
    // on a loaded machine the other answers could take longer than that.
    const handler = (timeoutMs: number) =>
      createSessionHandler({
        baseUrl: 'https://sandbox.test',
        publicKey: SANDBOX_PUBLIC_KEY,
        accessToken: SANDBOX_ACCESS_TOKEN,
        fetch: sandbox.fetch,
        timeoutMs,
        order: (request) => ({
          amount: request.amount!,
          callbackUrl: 'https://shop.test/cb',
          redirectUrl: 'https://shop.test/r',
        }),
      });
    const patient = handler(PATIENT.timeoutMs);
    const impatient = handler(50);
    for (const [amount, status, code] of expected) {
      await readError(await (amount === '504' ? impatient : patient)(post({ ...USSD_REQUEST, amount })), status, code);
    }
    assert.equal((await patient(post({ ...TRANSFER_REQUEST, amount: '1500' }))).status, 200);
  });
});

describe('createSandboxGateway: status', () => {
  it('reports PENDING after initiation, then what setStatus says', async () => {
    const sandbox = createSandboxGateway();
    const paid = gatewayBody('USSD');
    const failed = gatewayBody('TRANSFER');
    await send(sandbox, paid);
    await send(sandbox, failed);
    const paidRef = String(paid.paymentReference);
    const failedRef = String(failed.paymentReference);
    assert.deepEqual(sandbox.lookup(paidRef), { status: 'PENDING', message: undefined });
    assert.equal(sandbox.setStatus(paidRef, 'SUCCESS'), true);
    assert.deepEqual(sandbox.lookup(paidRef), { status: 'SUCCESS', message: 'Payment received.' });
    assert.equal(sandbox.setStatus(failedRef, 'FAILED', 'Customer cancelled'), true);
    assert.deepEqual(sandbox.lookup(failedRef), { status: 'FAILED', message: 'Customer cancelled' });
  });

  it('knows nothing of unknown references or failed initiations', async () => {
    const sandbox = createSandboxGateway();
    const declined = gatewayBody('USSD', { amount: '402' });
    await send(sandbox, declined);
    assert.equal(sandbox.lookup(String(declined.paymentReference)), undefined);
    assert.equal(sandbox.lookup('nope'), undefined);
    assert.equal(sandbox.setStatus('nope', 'SUCCESS'), false);
  });
});
