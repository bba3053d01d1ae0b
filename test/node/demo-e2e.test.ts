/**
 * The demo, end to end: `startDemo()` (what `npm start` runs) on 127.0.0.1, driven in the system's
 * headless Chromium through puppeteer-core as a customer would. Needs Chrome or Chromium
 * (`node scripts/ensure-chromium.mjs` installs it on CI); fails with a clear message without one.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startDemo, type RunningDemo } from '../../demo/server.js';
import { repoRoot } from './consumer-app.js';
import { CHROMIUM_FLAGS, findChromium, missingChromiumMessage } from '../../scripts/ensure-chromium.mjs';

/** How long to wait for one thing to appear; the status poll runs about every 2 s. */
const STEP_MS = 10_000;

describe('the demo, in headless Chromium', { timeout: 60_000 }, () => {
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  let userDataDir: string | undefined;
  let page: Page;
  const pageErrors: string[] = [];
  const foreignRequests: string[] = [];
  /** Paths the page asked for, in order. */
  const requested: string[] = [];

  before(async () => {
    const executablePath = (findChromium as () => string | undefined)();
    if (!executablePath) {
      throw new Error(
        `${(missingChromiumMessage as () => string)()} (CI installs it with: node scripts/ensure-chromium.mjs)`,
      );
    }
    // env: {} so a developer's PAY_* variables never point the test at a real gateway.
    demo = await startDemo({ port: 0, env: {}, logLevel: 'silent' });
    assert.match(demo.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.equal(demo.mode, 'sandbox');

    userDataDir = await mkdtemp(join(tmpdir(), 'pay-widget-demo-e2e-'));
    browser = await puppeteer.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS], userDataDir });
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    page.setDefaultTimeout(STEP_MS);
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    const origin = new URL(demo.url).origin;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${origin}/`) && !url.startsWith('data:')) foreignRequests.push(url);
      else if (url.startsWith(`${origin}/`)) requested.push(new URL(url).pathname);
    });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await demo?.close().catch(() => undefined);
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true }).catch(() => undefined);
  });

  /** The text of the widget's result heading, once it reads `text`. */
  async function waitForHeading(text: string): Promise<void> {
    await page.waitForFunction(
      (wanted) => document.querySelector('pay-widget')?.shadowRoot?.querySelector('h2')?.textContent?.trim() === wanted,
      { timeout: STEP_MS },
      text,
    );
  }

  async function logText(): Promise<string> {
    return page.$eval('#event-log', (log) => log.textContent ?? '');
  }

  async function loggedEvents(): Promise<string[]> {
    return page.$$eval('#event-log .event-name', (names) => names.map((name) => name.textContent ?? '').reverse());
  }

  async function fillCustomer(): Promise<void> {
    await page.type('pierce/#fullName', 'Ada Obi');
    await page.type('pierce/#email', 'ada@example.com');
    await page.type('pierce/#mobileNumber', '08012345678');
  }

  it('pays by USSD and completes through the webhook: the customer paid → webhook → ledger → status poll → pay-complete', async () => {
    await page.goto(demo!.url, { waitUntil: 'load' });
    await page.waitForSelector('pierce/input[name="paymentType"][value="USSD"]', { visible: true });
    await page.evaluate(() => {
      const seen: unknown[] = [];
      (window as unknown as { completed: unknown[] }).completed = seen;
      document
        .querySelector('pay-widget')!
        .addEventListener('pay-complete', (event) => seen.push((event as CustomEvent).detail));
    });
    assert.ok((await loggedEvents()).includes('pay-ready'), 'pay-ready is logged');
    assert.equal(await page.$eval('#simulate-success', (button) => (button as HTMLButtonElement).disabled), true);

    await page.click('pierce/input[name="paymentType"][value="USSD"]');
    await fillCustomer();
    await page.select('pierce/#bankCode', '058');
    await page.click('pierce/button[part~="submit"]');

    const dialCode = await page.waitForSelector('pierce/[part~="dial-code"]', { visible: true });
    const code = (await dialCode!.evaluate((element) => element.textContent ?? '')).trim();
    assert.match(code, /^\*\d+(\*\d+)*#$/, `a dial code of * and # around digit groups, got ${code}`);
    assert.match(
      code,
      /^\*000\*058\*/,
      'the sandbox dials *000*, then GTBank’s bank code (058), never a real bank’s *737*',
    );

    const log = await logText();
    assert.ok(log.includes('pay-initiated'), 'pay-initiated is logged');
    assert.ok(log.includes(code), 'the logged pay-initiated detail carries the dial code');

    const initiated = demo!.steps().find((step) => step.kind === 'initiated');
    const reference = initiated?.paymentReference;
    assert.ok(reference, 'the session endpoint recorded the payment in the ledger');

    await page.waitForSelector('#simulate-success:not([disabled])');
    await page.click('#simulate-success'); // "The customer paid": the sandbox posts its webhook to /pay/webhook
    await waitForHeading('Payment received');

    await page.waitForFunction(() => document.querySelector('#event-log .event-name')?.textContent === 'pay-complete');
    const completed = await page.evaluate(() => (window as unknown as { completed: unknown[] }).completed);
    // The server's amount (the order's), not a guess of the page's.
    assert.deepEqual(completed, [
      { paymentType: 'USSD', paymentReference: reference, amount: '5000.00', currency: 'NGN', status: 'SUCCESS' },
    ]);

    // The webhook settled the ledger, before any status re-query could, and onPaid ran once.
    const steps = demo!.steps().filter((step) => step.paymentReference === reference);
    const paid = steps.filter((step) => step.kind === 'paid');
    assert.equal(paid.length, 1);
    assert.match(paid[0]!.text, /moved by the webhook/);
    assert.ok(
      steps.some((step) => step.source === 'webhook' && step.kind === 'verified'),
      'the webhook re-verified the payment',
    );
    assert.equal(steps.filter((step) => step.kind === 'on-paid').length, 1, 'onPaid ran once');
    // And the page's server log showed each step as it happened.
    await page.waitForFunction(
      (ref) =>
        [...document.querySelectorAll('#server-log .step-text')].some(
          (item) => item.textContent === `Told the page's status poll that ${ref} is SUCCESS.`,
        ),
      {},
      reference,
    );
    const serverLog = await page.$eval('#server-log', (list) => list.textContent ?? '');
    for (const words of [
      'The customer paid',
      'Re-verified',
      'PENDING → SUCCESS',
      'onPaid ran for',
      'Posted the webhook',
    ]) {
      assert.ok(serverLog.includes(words), `the server log shows "${words}": ${serverLog}`);
    }
    const events = await loggedEvents();
    for (const name of ['pay-ready', 'pay-submit', 'pay-initiated', 'pay-complete']) {
      assert.ok(events.includes(name), `${name} is logged (got ${events.join(', ')})`);
    }
    assert.ok(events.indexOf('pay-initiated') < events.indexOf('pay-complete'));
    assert.ok((await logText()).includes('"status": "SUCCESS"'), 'pay-complete detail shows SUCCESS');
    assert.equal(await page.$eval('#simulate-success', (button) => (button as HTMLButtonElement).disabled), true);
  });

  it('serves what a shop ships: the script tag from /pay-widget/ and the page built for production, no dev server (issue 36)', () => {
    assert.ok(requested.includes('/pay-widget/pay-widget.iife.js'), requested.join(' '));
    assert.deepEqual(
      requested.filter((path) => /@vite|\.ts$|\/src\/|node_modules/.test(path)),
      [],
      'no dev server module',
    );
    const files = [...new Set(requested.filter((path) => !/^\/(pay|demo)\//.test(path)))];
    assert.ok(
      files.length <= 10,
      `the page and the widget in ten files at most, not a module graph: ${files.join(' ')}`,
    );
  });

  it('pays by transfer: account number, the bank declined, "Payment failed"', async () => {
    await page.click('pierce/section[part~="result"] button'); // "Make another payment"
    await page.waitForSelector('pierce/input[name="paymentType"][value="TRANSFER"]', { visible: true });
    await page.click('pierce/input[name="paymentType"][value="TRANSFER"]');
    // The typed details survive a reset; the bank list is not shown for a transfer.
    assert.equal(await page.$eval('pierce/#fullName', (input) => (input as HTMLInputElement).value), 'Ada Obi');
    assert.equal(await page.$('pierce/#bankCode'), null);
    await page.click('pierce/button[part~="submit"]');

    const account = await page.waitForSelector('pierce/[part~="account-number"]', { visible: true });
    assert.match((await account!.evaluate((element) => element.textContent ?? '')).trim(), /^\d{10}$/);

    await page.waitForSelector('#simulate-failure:not([disabled])');
    await page.click('#simulate-failure');
    await waitForHeading('Payment failed');
    const events = await loggedEvents();
    assert.ok(events.includes('pay-type-change') && events.includes('pay-reset'), events.join(', '));
    assert.equal(events.filter((name) => name === 'pay-complete').length, 2);
  });

  it('is axe-clean after both payments, the logs’ scrolling reachable by keyboard, and the "webhook lost" checkbox beside its label (issue 27)', async () => {
    await page.addScriptTag({ path: join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js') });
    const violations = await page.evaluate(async () => {
      const { violations } = await (
        window as unknown as {
          axe: { run(): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> };
        }
      ).axe.run();
      return violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => JSON.stringify(node.target)).join(' ')}`);
    });
    assert.deepEqual(violations, []);
    for (const log of ['#event-log', '#server-log']) {
      const scroller = await page.$eval(log, (list) => {
        const region = list.closest('[tabindex="0"]');
        return region && { role: region.getAttribute('role'), label: region.getAttribute('aria-label') };
      });
      assert.ok(scroller, `${log} is inside a region that takes keyboard focus`);
      assert.equal(scroller.role, 'log');
      assert.ok(scroller.label);
    }
    // No function declared inside: tsx would name it with a helper the page does not have.
    const { box, label } = await page.$eval('#webhook-lost', (input) => ({
      box: input.getBoundingClientRect().toJSON() as DOMRect,
      label: input.closest('label')!.querySelector('strong')!.getBoundingClientRect().toJSON() as DOMRect,
    }));
    assert.ok(box.width < 40, `the checkbox is a box, not a full-width field (${box.width} px)`);
    assert.ok(
      Math.abs(box.top + box.height / 2 - (label.top + label.height / 2)) < 8 && box.right <= label.left,
      'beside its label, on one line',
    );
  });

  it('after a reload, shows the same account again and the customer can still pay it: pay-resumed, "the customer paid" enabled, "Payment received"', async () => {
    await page.click('pierce/section[part~="result"] button'); // "Make another payment"
    await page.waitForSelector('pierce/input[name="paymentType"][value="TRANSFER"]', { visible: true });
    await page.click('pierce/input[name="paymentType"][value="TRANSFER"]');
    await page.click('pierce/button[part~="submit"]');
    const shown = async () =>
      (await page.waitForSelector('pierce/[part~="account-number"]', { visible: true }))!.evaluate((element) =>
        element.textContent!.trim(),
      );
    const account = await shown();
    const initiated = demo!.steps().filter((step) => step.kind === 'initiated').length;

    await page.reload({ waitUntil: 'load' });
    assert.equal(await shown(), account, 'the same account, not a new payment');
    await page.waitForFunction(() => document.querySelector('#event-log .event-name')?.textContent === 'pay-resumed');
    await page.waitForSelector('#simulate-success:not([disabled])');
    await page.click('#simulate-success');
    await waitForHeading('Payment received');
    assert.equal(
      demo!.steps().filter((step) => step.kind === 'initiated').length,
      initiated,
      'no session request after the reload',
    );
  });

  it("answers no other host name than this machine's (DNS rebinding): the page, the ledger and the endpoints refused", async () => {
    const { request } = await import('node:http');
    const status = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = request(new URL(path, demo!.url), { headers: { host: 'rebound.example' } }, (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
        });
        sent.on('error', reject).end();
      });
    for (const path of ['/', '/admin/payments', '/pay/status?paymentReference=x', '/demo/events'])
      assert.equal(await status(path), 403, path);
  });

  it('links to the ledger page, which lists the payments just made (issue 37)', async () => {
    const href = await page.$eval('a[href="/admin/payments"]', (link) => (link as HTMLAnchorElement).href);
    const ledger = await browser!.newPage();
    try {
      await ledger.goto(href, { waitUntil: 'load' });
      const text = await ledger.evaluate(() => document.body.innerText);
      assert.match(text, /pw-[0-9a-f]{32}/, 'the payments made above are listed');
      assert.doesNotMatch(
        await ledger.content(),
        /statusToken|Bearer|sk_sandbox|pk_sandbox|\d{10}\.[A-Za-z0-9_-]{43}/,
        'no token or key in the page',
      );
    } finally {
      await ledger.close();
    }
  });

  it('offers all six languages', async () => {
    const offered = await page.$$eval('#panel-locale option', (options) =>
      options.map((option) => (option as HTMLOptionElement).value),
    );
    assert.deepEqual(offered.sort(), ['en', 'fr', 'ha', 'ig', 'pcm', 'yo']);
  });

  it('stayed on 127.0.0.1 and threw nothing', () => {
    assert.deepEqual(foreignRequests, []);
    assert.deepEqual(pageErrors, []);
  });
});
