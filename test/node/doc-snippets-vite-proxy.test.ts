// docs/frameworks.md's vite.config.ts, run as written: Vite's dev server (server.proxy) and its
// preview server (preview.proxy) pass /pay on to a back end on its own port (createPayments behind
// toNodeHandler, on the sandbox), so a page on Vite's origin with session-url="/pay/session" pays:
// the session through the proxy, the status where the session's answer points (order.statusUrl,
// resolved against the session URL), and "Payment received" (SUCCESS) once the sandbox's webhook
// reached the back end. The widget's own requests: an Origin of Vite's address, no Sec-Fetch-Site.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServer, preview } from 'vite';
import { createGateway, createMemoryStores, createPayments, type Payment } from '../../src/server/index.js';
import { toNodeHandler } from '../../src/server/node.js';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import { repoRoot } from './consumer-app.js';
import { codeBlocks } from './doc-snippets.js';
import { freePort, loopbackServers } from './loopback.js';
import { USSD_REQUEST } from './server-fixtures.js';

const DOCUMENTED_BACK_END = 'http://127.0.0.1:3000';
const servers = loopbackServers();
const closers: (() => Promise<unknown>)[] = [];
const paid: Payment[] = [];
let dir: string;
let sandbox: ReturnType<typeof createSandboxGateway>;

before(async () => {
  const page = 'docs/frameworks.md';
  const block = codeBlocks(page, await readFile(join(repoRoot, page), 'utf8')).find(
    (candidate) => candidate.title === 'vite.config.ts',
  );
  assert.ok(block, `${page} has a [vite.config.ts] block`);
  assert.ok(block.code.includes(DOCUMENTED_BACK_END), `it proxies to ${DOCUMENTED_BACK_END}`);

  // The back end of the page: createPayments mounted at /pay, on a free port instead of 3000.
  let listener: ReturnType<typeof toNodeHandler> | undefined;
  const backEnd = await servers.listen((request, response) => void listener!(request, response));
  closers.push(
    () => servers.close(),
    () => sandbox.webhooksSettled(),
  );
  sandbox = createSandboxGateway({ webhookUrl: `${backEnd}/pay/webhook` });
  const gateway = createGateway({
    baseUrl: 'https://sandbox.invalid',
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey: SANDBOX_SECRET_KEY,
    fetch: sandbox.fetch,
  });
  const payments = createPayments({
    gateway,
    stores: createMemoryStores(),
    order: async () => ({ amount: '5000.00', currency: 'NGN' }),
    onPaid: (payment) => void paid.push(payment),
    publicUrl: `${backEnd}/pay`,
    reconcile: false,
  });
  listener = toNodeHandler(payments);

  // The back end started on its own free port: the documented config, pointed at it.
  // Inside the repository, where the config's `import … from 'vite'` resolves.
  dir = join(repoRoot, 'test-results', 'doc-snippets-vite-proxy');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'vite.config.ts'), block.code.replaceAll(DOCUMENTED_BACK_END, backEnd));
  await writeFile(join(dir, 'index.html'), '<!doctype html><pay-widget session-url="/pay/session"></pay-widget>');
  await mkdir(join(dir, 'dist'));
  await writeFile(
    join(dir, 'dist', 'index.html'),
    '<!doctype html><pay-widget session-url="/pay/session"></pay-widget>',
  );
});

after(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

/** The widget's calls, from a page on `page` (Vite's origin): session, then status where the answer points. */
async function payThrough(page: string, key: string): Promise<void> {
  const sessionUrl = `${page}/pay/session`;
  const session = await fetch(sessionUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key, origin: page },
    body: JSON.stringify(USSD_REQUEST),
  });
  const text = await session.text();
  assert.equal(session.status, 200, text);
  const { order } = JSON.parse(text) as {
    order: { paymentReference: string; statusToken: string; statusUrl: string; amount: string };
  };
  assert.equal(order.amount, '5000.00');
  const statusUrl = new URL(order.statusUrl, sessionUrl);
  assert.equal(statusUrl.origin, page, 'the status is polled on the page’s origin, through the proxy');
  statusUrl.search = new URLSearchParams({
    paymentReference: order.paymentReference,
    statusToken: order.statusToken,
  }).toString();
  const status = async () => {
    const response = await fetch(statusUrl, { headers: { origin: page } });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { status: string }).status;
  };
  assert.equal(await status(), 'PENDING');

  assert.ok(sandbox.setStatus(order.paymentReference, 'SUCCESS'), 'the customer paid');
  await sandbox.webhooksSettled();
  assert.equal(await status(), 'SUCCESS', 'Payment received');
  assert.deepEqual(
    paid.filter((payment) => payment.paymentReference === order.paymentReference).length,
    1,
    'onPaid once',
  );
}

describe("docs/frameworks.md's Vite proxy for /pay, run against a createPayments back end", () => {
  it('vite dev (server.proxy): session, status, and SUCCESS after the webhook', async () => {
    const server = await createServer({
      root: dir,
      configFile: join(dir, 'vite.config.ts'),
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    closers.push(() => server.close());
    await server.listen();
    await payThrough(server.resolvedUrls!.local[0]!.replace(/\/$/, ''), 'vite-dev-000000001');
  });

  it('vite preview (preview.proxy): the same', async () => {
    const server = await preview({
      root: dir,
      configFile: join(dir, 'vite.config.ts'),
      logLevel: 'silent',
      preview: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    closers.push(() => new Promise<void>((resolve) => server.httpServer.close(() => resolve())));
    await payThrough(server.resolvedUrls!.local[0]!.replace(/\/$/, ''), 'vite-preview-00000001');
  });
});
