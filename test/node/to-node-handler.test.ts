// toNodeHandler (pay-widget/server/node) as shops mount it: Express with the payments handler
// before or after express.json(), and node:http; and the sandbox's "customer paid" endpoint, which
// answers the person at this machine only, whatever a request says through its headers.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, describe, it } from 'node:test';
import express from 'express';
import { createGateway, createMemoryStores, createPayments, type Payment } from '../../src/server/index.js';
import { toNodeHandler } from '../../src/server/node.js';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import { loopbackServers } from './loopback.js';
import { USSD_REQUEST } from './server-fixtures.js';

const { listen, close } = loopbackServers();
const sandboxes: { close(): void }[] = [];
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const stop of closers) await stop();
  for (const sandbox of sandboxes) sandbox.close();
  await close();
});

function payments(publicUrl: string) {
  const sandbox = createSandboxGateway();
  sandboxes.push(sandbox);
  const gateway = createGateway({
    baseUrl: 'https://sandbox.invalid',
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey: SANDBOX_SECRET_KEY,
    fetch: sandbox.fetch,
  });
  const paid: Payment[] = [];
  const made = createPayments({
    gateway,
    stores: createMemoryStores(),
    publicUrl,
    order: async () => ({ amount: '5000.00' }),
    onPaid: (payment) => void paid.push(payment),
    reconcile: false,
  });
  closers.push(() => made.close());
  return { made, sandbox, paid };
}

/** A session, its status, and the gateway's notification once the customer paid: each answered as it should be. */
async function payThrough(origin: string, { sandbox, paid }: ReturnType<typeof payments>): Promise<void> {
  const started = await fetch(`${origin}/pay/session`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': `node-handler-${Math.random().toString(36).slice(2)}`,
    },
    body: JSON.stringify(USSD_REQUEST),
  });
  const text = await started.text();
  assert.equal(started.status, 200, text);
  const { order } = JSON.parse(text) as { order: { paymentReference: string; statusToken: string; statusUrl: string } };
  const statusUrl = new URL(order.statusUrl, `${origin}/pay/session`);
  statusUrl.search = new URLSearchParams({
    paymentReference: order.paymentReference,
    statusToken: order.statusToken,
  }).toString();
  assert.equal(((await (await fetch(statusUrl)).json()) as { status: string }).status, 'PENDING');
  sandbox.setStatus(order.paymentReference, 'SUCCESS');
  const notified = await fetch(`${origin}/pay/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      notificationItems: [
        { notificationRequestItem: { eventType: 'transaction', data: { reference: order.paymentReference } } },
      ],
    }),
  });
  assert.equal(notified.status, 200, await notified.text());
  assert.deepEqual(
    paid.map((payment) => payment.paymentReference),
    [order.paymentReference],
  );
}

describe('toNodeHandler', () => {
  for (const order of ['after express.json()', 'before express.json()'] as const) {
    it(`serves the payments in Express mounted ${order}`, async () => {
      const app = express();
      let shop: ReturnType<typeof payments> | undefined;
      const mount = () => app.all('/pay/*splat', (request, response) => toNodeHandler(shop!.made)(request, response));
      if (order === 'before express.json()') mount();
      app.use(express.json());
      if (order === 'after express.json()') mount();
      const origin = await listen(app);
      shop = payments(`${origin}/pay`);
      await payThrough(origin, shop);
    });
  }

  it('hands on a body express.text() or express.raw() read first', async () => {
    const app = express();
    app.use(express.text({ type: 'application/json' }));
    let shop: ReturnType<typeof payments> | undefined;
    app.all('/pay/*splat', (request, response) => toNodeHandler(shop!.made)(request, response));
    const origin = await listen(app);
    shop = payments(`${origin}/pay`);
    await payThrough(origin, shop);
  });

  it('serves node:http, every path to the payments', async () => {
    let shop: ReturnType<typeof payments> | undefined;
    const origin = await listen((request, response) => void toNodeHandler(shop!.made)(request, response));
    shop = payments(`${origin}/pay`);
    await payThrough(origin, shop);
  });
});

/** A POST to `path` with `headers`, sent as written (fetch would refuse a Host header). */
function rawPost(origin: string, path: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${origin}${path}`,
      { method: 'POST', headers: { 'content-type': 'text/plain', ...headers } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe("the sandbox's customerPaid", () => {
  it('marks a payment paid for the person at this machine, and refuses anything that came through a proxy, a tunnel or another host', async () => {
    const shop = payments('http://127.0.0.1/pay');
    const origin = await listen(toNodeHandler({ handler: shop.sandbox.customerPaid }));
    const started = await shop.made.handler(
      new Request('http://127.0.0.1/pay/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'customer-paid-0001' },
        body: JSON.stringify(USSD_REQUEST),
      }),
    );
    const { order } = (await started.json()) as { order: { paymentReference: string } };
    const refusals: Record<string, string>[] = [
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
      { 'cf-connecting-ip': '127.0.0.1' },
      { host: 'shop.example' },
      { host: 'abc.ngrok-free.app', 'x-forwarded-for': '203.0.113.9' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of refusals) {
      assert.equal(
        await rawPost(origin, '/sandbox/paid', order.paymentReference, headers),
        403,
        JSON.stringify(headers),
      );
    }
    assert.equal(shop.sandbox.lookup(order.paymentReference)?.status, 'PENDING', 'nothing was marked paid');
    assert.equal(await rawPost(origin, '/sandbox/paid', 'pw-unknown'), 404);
    assert.equal(await rawPost(origin, '/sandbox/paid', 'x'.repeat(10_000)), 400);
    assert.equal(await rawPost(origin, '/sandbox/paid', order.paymentReference), 204);
    assert.equal(shop.sandbox.lookup(order.paymentReference)?.status, 'SUCCESS');
  });
});
