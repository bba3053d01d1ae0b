// examples/express as a newcomer runs it: the packed package installed with the example's files into
// a fresh folder outside the repository, started with `npm start` against the in-process sandbox,
// and driven over 127.0.0.1: session, replay, status, "the customer paid" through the webhook to
// onPaid once, and the caller's address given to beforeInitiate. Run after `npm run build`.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createConsumerApp, packPackage, repoRoot } from './consumer-app.js';
import { freePort } from './loopback.js';
import { statusBody, USSD_REQUEST } from './server-fixtures.js';

/** Only a failure waits this long: generous for a loaded 2-core machine. */
const WAIT_MS = 30_000;

const closers: (() => Promise<void>)[] = [];
let origin: string;
let output = '';
let server: ChildProcess;

/** Resolves once the server's output matches `pattern`; fails after WAIT_MS with what it printed. */
async function printed(pattern: RegExp): Promise<RegExpMatchArray> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const match = output.match(pattern);
    if (match) return match;
    if (Date.now() > deadline || server.exitCode !== null) assert.fail(`the example never printed ${pattern}; it printed:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

before(async () => {
  const pack = await packPackage();
  closers.push(pack.close);
  const app = await createConsumerApp(pack.tarball, 'example-express', ['express', '@hono/node-server'], join(repoRoot, 'examples', 'express'));
  closers.push(app.close);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const { PATH, HOME } = process.env;
  server = spawn('npm', ['start'], { cwd: app.dir, env: { PATH, HOME, PORT: String(port), HOST: '127.0.0.1' }, detached: true });
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  closers.push(async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-server.pid!, 'SIGTERM'); // npm and the node it started
    await exited;
  });
  await printed(/listening on http:\/\/127\.0\.0\.1:\d+ \(sandbox gateway\)/);
});

after(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

function session(key: string): Promise<Response> {
  return fetch(`${origin}/pay/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(USSD_REQUEST),
  });
}

describe('examples/express, installed from the packed package and started with npm start', () => {
  it('serves the page and the script-tag build', async () => {
    const page = await fetch(`${origin}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<pay-widget session-url="\/pay\/session" status-url="\/pay\/status"/);
    const script = await fetch(`${origin}/pay-widget.js`);
    assert.equal(script.status, 200);
    assert.match(await script.text(), /pay-widget/);
  });

  it('runs the payment loop against the sandbox: session, replay, status, the webhook to onPaid once', async () => {
    const first = await session('example-express-0001');
    const text = await first.text();
    assert.equal(first.status, 200, text);
    const body = JSON.parse(text) as { data: { payments: { ussdDailCode?: string } }; order: { paymentReference: string; amount: string; currency: string; statusToken: string } };
    assert.deepEqual([body.order.amount, body.order.currency], ['5000.00', 'NGN'], 'the server’s amount, not the page’s');
    assert.match(text, /\*000\*058\*/, 'USSD instructions');

    const replay = await session('example-express-0001');
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(await replay.text(), text, 'a replay gets the same answer');

    const reference = body.order.paymentReference;
    const statusUrl = `${origin}/pay/status?paymentReference=${encodeURIComponent(reference)}&statusToken=${encodeURIComponent(body.order.statusToken)}`;
    assert.deepEqual(await statusBody(await fetch(statusUrl)), { status: 'PENDING', amount: '5000.00', currency: 'NGN' });

    const paid = await fetch(`${origin}/pay/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentReference: reference }),
    });
    assert.equal(paid.status, 204);
    await printed(new RegExp(`webhook \\{"type":"paid","paymentReference":"${reference}"`));
    await printed(new RegExp(`paid ${reference} 5000.00 NGN`));
    assert.deepEqual(await statusBody(await fetch(statusUrl)), { status: 'SUCCESS', amount: '5000.00', currency: 'NGN' });
    assert.equal(output.split(`paid ${reference} `).length - 1, 1, 'onPaid ran once');
  });

  it('gives beforeInitiate the caller’s address, 127.0.0.1', async () => {
    assert.equal((await session('example-express-0002')).status, 200);
    const addresses = [...output.matchAll(/^session from (.*)$/gm)].map((match) => match[1]);
    assert.ok(addresses.length >= 2, output);
    assert.deepEqual(new Set(addresses), new Set(['127.0.0.1']));
  });
});
