// The README's complete Express server, run as pasted: its ```js block saved as server.mjs in a
// fresh app outside the repository (the packed package, express, @hono/node-server and libsql, as
// the README installs them), started with `node server.mjs` against the in-process sandbox, then
// paid once by a customer in headless Chromium (the form, Pay, the dial code, "The customer paid",
// "Payment received") with onPaid run once through the webhook; then over HTTP: a replay, the
// status, and a restart that finds the payment still in its SQLite ledger. Run after `npm run build`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS, findChromium, missingChromiumMessage } from '../../scripts/ensure-chromium.mjs';
import { createConsumerApp, packPackage, repoRoot } from './consumer-app.js';
import { codeBlocks } from './doc-snippets.js';
import { statusBody, USSD_REQUEST, withoutTimeLeft } from './server-fixtures.js';
import { startServer, type StartedServer } from './started-server.js';

const run = promisify(execFile);

const STEP_MS = 30_000;
/** No status secret: createPayments keeps its own in the SQLite file, so a token survives the restart. */
const env = { PAY_SANDBOX: '1' };

const closers: (() => Promise<void>)[] = [];
let app: string;
let server: StartedServer;
let browser: Browser | undefined;

/** The README's block that is the complete server: the one that listens. */
async function readmeServer(): Promise<string> {
  const blocks = codeBlocks('README.md', await readFile(join(repoRoot, 'README.md'), 'utf8'));
  const servers = blocks.filter((block) => block.lang === 'js' && block.code.includes('app.listen('));
  assert.equal(servers.length, 1, 'the README has one complete server');
  return servers[0]!.code;
}

before(async () => {
  const source = await mkdtemp(join(tmpdir(), 'pay-widget-readme-source-'));
  closers.push(() => rm(source, { recursive: true, force: true }));
  await writeFile(join(source, 'server.mjs'), await readmeServer());
  await writeFile(join(source, 'package.json'), JSON.stringify({ scripts: { start: 'node server.mjs' } }));
  const pack = await packPackage();
  closers.push(pack.close);
  const made = await createConsumerApp(pack.tarball, 'readme-server', ['express', 'libsql'], source);
  closers.push(made.close);
  app = made.dir;
  server = await startServer(app, 'start', /open http:\/\/127\.0\.0\.1:\d+ \(sandbox\)/, { env });
  closers.push(() => server.close());
});

after(async () => {
  await browser?.close().catch(() => undefined);
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

async function heading(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (wanted) => document.querySelector('pay-widget')?.shadowRoot?.querySelector('h2')?.textContent?.trim() === wanted,
    { timeout: STEP_MS },
    text,
  );
}

describe('the README’s complete Express server, pasted into server.mjs and started with node', () => {
  let reference = '';

  it('takes a payment from a customer in the browser, and onPaid runs once through the webhook', async (t) => {
    const executablePath = findChromium();
    if (!executablePath) return t.skip(missingChromiumMessage());
    browser = await puppeteer.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS] });
    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_MS);
    const scripts: string[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.startsWith('/pay-widget/')) scripts.push(`${response.status()} ${path}`);
    });
    await page.goto(server.origin, { waitUntil: 'load' });

    await page.waitForSelector('pierce/input[name="paymentType"][value="USSD"]', { visible: true });
    await page.click('pierce/input[name="paymentType"][value="USSD"]');
    await page.type('pierce/#fullName', 'Ada Obi');
    await page.type('pierce/#email', 'ada@example.com');
    await page.type('pierce/#mobileNumber', '08012345678');
    await page.select('pierce/#bankCode', '058');
    await page.click('pierce/button[part~="submit"]');
    const dialCode = async () =>
      (await page.waitForSelector('pierce/[part~="dial-code"]', { visible: true }))!.evaluate((element) =>
        element.textContent!.trim(),
      );
    const code = await dialCode();
    assert.match(code, /^\*000\*058\*/);
    await page.waitForSelector('#paid', { visible: true });

    // Back from the dialer to a reloaded tab: the same code, and the snippet's pay-resumed listener shows the button
    // again.
    await page.reload({ waitUntil: 'load' });
    assert.equal(await dialCode(), code);
    await page.waitForSelector('#paid', { visible: true });
    await page.click('#paid'); // "The customer paid (sandbox)"
    await heading(page, 'Payment received');

    [, reference = ''] = (await server.printed(/paid (\S+) 5000\.00 NGN/)) as string[];
    assert.equal(server.output().split(`paid ${reference} `).length - 1, 1, 'onPaid ran once');
    assert.match(
      server.output(),
      new RegExp(`"type":"paid","paymentReference":"${reference}"`),
      'the webhook settled it',
    );
    assert.ok(
      scripts.includes('200 /pay-widget/pay-widget.after-submit.js'),
      `the script's second file was served beside it: ${scripts.join(', ')}`,
    );
    // After the reload, the browser asks whether its copies are current: 304 is served too.
    assert.deepEqual(
      scripts.filter((line) => !/^(200|304) /.test(line)),
      [],
      'every file of the script was served',
    );
  });

  it('takes a transfer too, the widget polling the status URL the session answer gave (the page sets no status-url)', async (t) => {
    if (!browser) return t.skip('no Chromium');
    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_MS);
    await page.goto(server.origin, { waitUntil: 'load' });
    assert.equal(
      await page.$eval('pay-widget', (widget) => widget.getAttribute('status-url')),
      null,
      'the README page sets session-url only',
    );
    await page.waitForSelector('pierce/input[name="paymentType"][value="TRANSFER"]', { visible: true });
    await page.click('pierce/input[name="paymentType"][value="TRANSFER"]');
    await page.type('pierce/#fullName', 'Ada Obi');
    await page.type('pierce/#email', 'ada@example.com');
    await page.type('pierce/#mobileNumber', '08012345678');
    await page.click('pierce/button[part~="submit"]');
    await page.waitForSelector('pierce/[part~="account-number"]', { visible: true });
    await page.waitForSelector('#paid', { visible: true });
    await page.click('#paid');
    await heading(page, 'Payment received');
    await page.close();
  });

  it('answers a replay with the same payment and the status with the server’s amount, and keeps the ledger across a restart', async () => {
    const session = (key: string) =>
      fetch(`${server.origin}/pay/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(USSD_REQUEST),
      });
    const first = await session('readme-server-0001');
    const text = await first.text();
    assert.equal(first.status, 200, text);
    const replay = await session('readme-server-0001');
    assert.equal(withoutTimeLeft(await replay.text()), withoutTimeLeft(text), 'a replay gets the same answer');
    const { order } = JSON.parse(text) as { order: { paymentReference: string; statusToken: string } };
    const statusOf = (origin: string, ref: string, token: string) =>
      fetch(
        `${origin}/pay/status?paymentReference=${encodeURIComponent(ref)}&statusToken=${encodeURIComponent(token)}`,
      ).then(statusBody);
    assert.deepEqual(await statusOf(server.origin, order.paymentReference, order.statusToken), {
      status: 'PENDING',
      amount: '5000.00',
      currency: 'NGN',
    });

    await server.close();
    server = await startServer(app, 'start', /open http:\/\/127\.0\.0\.1:\d+ \(sandbox\)/, { env });
    assert.deepEqual(
      await statusOf(server.origin, order.paymentReference, order.statusToken),
      { status: 'PENDING', amount: '5000.00', currency: 'NGN' },
      'the payment is still in payments.db after the restart',
    );
    const again = await session('readme-server-0001');
    assert.equal(again.status, 200);
    assert.equal(
      ((await again.json()) as { order: { paymentReference: string } }).order.paymentReference,
      order.paymentReference,
      'the same key names the same payment after a restart',
    );
  });

  it('never runs on the sandbox by mistake: with no settings, or only some of the gateway’s, it stops with one line', async () => {
    const { PATH, HOME } = process.env;
    for (const settings of [
      {},
      { PAY_BASE_URL: 'https://seerbitapi.com' },
      { PAY_SANDBOX: '1', PAY_SECRET_KEY: 'sk_live_x' },
    ]) {
      const result = await run('node', ['server.mjs'], {
        cwd: app,
        env: { PATH, HOME, PORT: '0', ...settings },
        timeout: 30_000,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
      );
      assert.equal(result.code, 1, `exit code with ${JSON.stringify(settings)}`);
      assert.equal(
        result.stderr.trim(),
        'Set PAY_BASE_URL, PAY_PUBLIC_KEY and PAY_SECRET_KEY for the gateway, or only PAY_SANDBOX=1 for the sandbox.',
      );
    }
  });
});
