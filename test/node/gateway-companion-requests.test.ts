/**
 * Issue 18, the gateway's request fields (spec/gateway-companion.md §5): TRANSFER initiations carry
 * `amountControl` and `walletDaysActive` as the gateway's own apps send them, USSD ones do not; a
 * USSD answer coded `S20` (or `20`) with a dial code is a success; the sandbox answers a
 * re-initiation of a reference it has with the same instructions only when it says `retry: true`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readEnvelope } from '../../src/contract/envelope.js';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import type { GatewayRequest } from '../../src/contract/schemas.js';
import { createGateway, createSessionHandler, type SessionHandlerOptions } from '../../src/server/internal.js';
import { initiationBody } from './gateway-fixtures.js';
import {
  makeHandler,
  ORDER,
  post,
  readError,
  recordingFetch,
  TRANSFER_REQUEST,
  USSD_REQUEST,
  ussdEnvelope,
} from './server-fixtures.js';

/** A session handler whose gateway is a fresh sandbox, every initiation it sends recorded. */
function onRecordedSandbox(options: Partial<SessionHandlerOptions> = {}) {
  const sandbox = createSandboxGateway();
  const upstream = recordingFetch((call) =>
    sandbox.fetch(call.url, { method: call.method, headers: call.headers, body: JSON.stringify(call.body) }),
  );
  const handler = createSessionHandler({
    baseUrl: 'https://sandbox.test',
    publicKey: SANDBOX_PUBLIC_KEY,
    accessToken: SANDBOX_ACCESS_TOKEN,
    fetch: upstream.fetch,
    order: () => ORDER,
    ...options,
  });
  return { handler, calls: upstream.calls };
}

describe('issue 18: TRANSFER request fields', () => {
  it('sends amountControl FIXEDAMOUNT and walletDaysActive "1" with TRANSFER, and the sandbox accepts them', async () => {
    const { handler, calls } = onRecordedSandbox();
    const response = await handler(post(TRANSFER_REQUEST));
    assert.equal(response.status, 200, await response.clone().text());
    assert.ok(readEnvelope(await response.json(), 'TRANSFER').ok);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.body.amountControl, 'FIXEDAMOUNT');
    assert.equal(calls[0]!.body.walletDaysActive, '1');
  });

  it('sends the walletDaysActive option', async () => {
    const { handler, calls } = onRecordedSandbox({ walletDaysActive: '3' });
    assert.equal((await handler(post(TRANSFER_REQUEST))).status, 200);
    assert.equal(calls[0]!.body.walletDaysActive, '3');
  });

  it('sends neither with USSD', async () => {
    const { handler, calls } = onRecordedSandbox({ walletDaysActive: '3' });
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    assert.equal('amountControl' in calls[0]!.body, false);
    assert.equal('walletDaysActive' in calls[0]!.body, false);
  });

  for (const bad of ['0', '', 'one', '1.5', ' 1', '1000', 1, null]) {
    it(`refuses walletDaysActive ${JSON.stringify(bad)} when the handler is made`, () => {
      assert.throws(
        () => makeHandler({ walletDaysActive: bad as string }),
        (error: unknown) => error instanceof TypeError && /walletDaysActive/.test(error.message),
      );
    });
  }
});

describe('issue 18: a USSD answer coded S20', () => {
  for (const code of ['S20', '20']) {
    it(`is a success with its dial code when data.code is ${code}`, async () => {
      const { handler, events } = makeHandler({}, (call) => {
        const envelope = ussdEnvelope(String(call.body.paymentReference));
        return Response.json({ ...envelope, data: { ...envelope.data, code, message: 'Transaction is pending' } });
      });
      const response = await handler(post(USSD_REQUEST));
      assert.equal(response.status, 200);
      const read = readEnvelope(await response.json(), 'USSD');
      assert.ok(read.ok);
      assert.equal(read.instructions.paymentType === 'USSD' && read.instructions.ussdDialCode, '*737*000*1234#');
      assert.ok(events.some((event) => event.type === 'gateway' && event.outcome === 'success'));
    });
  }

  it('is not a success without a dial code', async () => {
    const { handler } = makeHandler({}, (call) =>
      Response.json({
        status: 'SUCCESS',
        data: {
          code: 'S20',
          message: 'Transaction is pending',
          payments: { paymentReference: call.body.paymentReference },
        },
      }),
    );
    await readError(await handler(post(USSD_REQUEST)), 502, 'invalid_gateway_response');
  });
});

describe('issue 18: the sandbox and a re-initiated reference', () => {
  function sandboxBody(paymentType: 'USSD' | 'TRANSFER', paymentReference: string): GatewayRequest {
    const typed =
      paymentType === 'USSD' ? { bankCode: '058' } : { amountControl: 'FIXEDAMOUNT' as const, walletDaysActive: '1' };
    return { ...initiationBody(paymentReference), publicKey: SANDBOX_PUBLIC_KEY, paymentType, ...typed };
  }

  function sandboxGateway() {
    const sandbox = createSandboxGateway();
    return createGateway({
      baseUrl: 'https://sandbox.test',
      publicKey: SANDBOX_PUBLIC_KEY,
      accessToken: SANDBOX_ACCESS_TOKEN,
      fetch: sandbox.fetch,
    });
  }

  for (const paymentType of ['USSD', 'TRANSFER'] as const) {
    it(`${paymentType}: with retry: true, the same instructions again`, async () => {
      const gateway = sandboxGateway();
      const first = await gateway.initiate(sandboxBody(paymentType, `re-${paymentType}`));
      const again = await gateway.initiate({ ...sandboxBody(paymentType, `re-${paymentType}`), retry: true });
      assert.equal(first.kind, 'success');
      assert.equal(again.kind, 'success');
      assert.deepEqual(first.kind === 'success' && first.envelope, again.kind === 'success' && again.envelope);
    });

    it(`${paymentType}: without retry, the gateway's duplicate-reference answer`, async () => {
      const gateway = sandboxGateway();
      assert.equal((await gateway.initiate(sandboxBody(paymentType, `dup-${paymentType}`))).kind, 'success');
      const again = await gateway.initiate(sandboxBody(paymentType, `dup-${paymentType}`));
      assert.equal(again.kind, 'duplicate-reference');
    });
  }

  it('starts a payment for retry: true on a reference it does not have (the first initiation never arrived)', async () => {
    const outcome = await sandboxGateway().initiate({ ...sandboxBody('USSD', 'lost-first'), retry: true });
    assert.equal(outcome.kind, 'success');
  });

  it('refuses a retry that is not a boolean', async () => {
    const body = { ...sandboxBody('USSD', 'bad-retry'), retry: 'yes' } as unknown as GatewayRequest;
    const outcome = await sandboxGateway().initiate(body);
    assert.equal(outcome.kind, 'http-error');
  });
});
