import { getRequestListener } from '@hono/node-server';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import { readEnvelope } from '../../src/contract/schemas.js';
import { createSessionHandler, createStatusHandler } from '../../src/server/internal.js';
import {
  ORDER,
  TRANSFER_REQUEST,
  readError,
  STATUS_SECRET,
  statusBody,
  USSD_REQUEST,
  withoutTimeLeft,
} from './server-fixtures.js';
import { loopbackServers } from './loopback.js';

/** Both the gateway and the merchant server are real HTTP servers on 127.0.0.1. */
describe('createSessionHandler mounted in Node http', () => {
  // The sandbox's slow answer (magic amount 504) takes a minute: far beyond any time-out below.
  const sandbox = createSandboxGateway({ slowMs: 60_000 });
  const { listen, close } = loopbackServers();
  let merchant = '';

  before(async () => {
    const gateway = await listen(getRequestListener(sandbox));
    const sessionHandler = (limits: { timeoutMs: number; attemptTimeoutMs: number }) =>
      createSessionHandler({
        statusSecret: STATUS_SECRET,
        baseUrl: gateway,
        publicKey: SANDBOX_PUBLIC_KEY,
        accessToken: SANDBOX_ACCESS_TOKEN,
        ...limits,
        order: (request) => ({
          ...ORDER,
          amount: request.amount ?? ORDER.amount,
          paymentReference: `node-${request.paymentType}-${Math.random().toString(36).slice(2)}`,
        }),
      });
    const routes: Record<string, (request: Request) => Promise<Response>> = {
      // Limits no loaded machine reaches, for the payments that must succeed.
      '/session': sessionHandler({ timeoutMs: 30_000, attemptTimeoutMs: 60_000 }),
      // A short wait for the gateway's answer, the time-out under test, and a patient deadline for the rest of the
      // request.
      '/session-impatient': sessionHandler({ timeoutMs: 500, attemptTimeoutMs: 60_000 }),
      '/status': createStatusHandler({ statusSecret: STATUS_SECRET, lookup: (reference) => sandbox.lookup(reference) }),
    };
    merchant = await listen(getRequestListener((request) => routes[new URL(request.url).pathname]!(request)));
  });

  after(close);

  const postSession = (body: unknown, headers: Record<string, string> = {}, path = '/session') =>
    fetch(`${merchant}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': `node-http-${crypto.randomUUID()}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it('initiates USSD and TRANSFER payments over loopback, then reports the status', async () => {
    const ussdBody = (await (await postSession(USSD_REQUEST)).json()) as { order: { statusToken: string } };
    const ussd = readEnvelope(ussdBody, 'USSD');
    assert.ok(ussd.ok && ussd.instructions.paymentType === 'USSD');
    assert.match(ussd.instructions.ussdDialCode, /^\*000\*058\*\d+#$/);

    const transfer = readEnvelope(await (await postSession(TRANSFER_REQUEST)).json(), 'TRANSFER');
    assert.ok(transfer.ok && transfer.instructions.paymentType === 'TRANSFER');

    const reference = ussd.instructions.paymentReference;
    const statusUrl = `${merchant}/status?paymentReference=${reference}&statusToken=${ussdBody.order.statusToken}`;
    assert.deepEqual(await statusBody(await fetch(statusUrl)), { status: 'PENDING' });
    assert.ok(sandbox.setStatus(reference, 'SUCCESS'));
    assert.deepEqual(await statusBody(await fetch(statusUrl)), { status: 'SUCCESS', message: 'Payment received.' });
  });

  it('answers bad input and a slow gateway with contract errors over HTTP', async () => {
    await readError(await postSession({ ...USSD_REQUEST, bankCode: undefined }), 400, 'validation');
    await readError(await postSession(USSD_REQUEST, { 'idempotency-key': 'x' }), 400, 'invalid_idempotency_key');
    // Magic amount 504: the sandbox answers after slowMs (a minute); a 504 means the handler gave up first.
    await readError(
      await postSession({ ...USSD_REQUEST, amount: '504' }, {}, '/session-impatient'),
      504,
      'gateway_timeout',
    );
  });

  it('replays an Idempotency-Key over HTTP', async () => {
    const headers = { 'idempotency-key': `node-http-${Date.now()}` };
    const first = await postSession(USSD_REQUEST, headers);
    const second = await postSession(USSD_REQUEST, headers);
    assert.equal(withoutTimeLeft(await second.text()), withoutTimeLeft(await first.text()));
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
  });
});
