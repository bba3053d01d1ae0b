// The ledger page as the shop's staff use it (issue 37): behind HTTP Basic auth in headless
// Chromium, beside a createPayments shop on the sandbox. Refused without the password; the list,
// a search by part of a phone number, a payment with its history; an action posted without the
// form's CSRF token refused, one from the page itself kept; no token or key in any of its HTML;
// axe finds nothing on the list or the payment.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { createGateway, createLedgerPage, createMemoryStores, createPayments } from '../../src/server/index.js';
import { toNodeHandler } from '../../src/server/node.js';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import { launchChromium } from './consumer-app.js';
import { loopbackServers } from './loopback.js';
import { USSD_REQUEST } from './server-fixtures.js';

const PASSWORD = 'staff-only-4815';
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const { listen, close } = loopbackServers();
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let origin = '';
let reference = '';
let statusToken = '';
const sandbox = createSandboxGateway();
const stores = createMemoryStores();
const gateway = createGateway({
  baseUrl: 'https://sandbox.invalid',
  publicKey: SANDBOX_PUBLIC_KEY,
  secretKey: SANDBOX_SECRET_KEY,
  fetch: sandbox.fetch,
});
const payments = createPayments({
  gateway,
  stores,
  publicUrl: 'http://127.0.0.1/pay',
  order: async () => ({ amount: '5000.00' }),
  onPaid: () => {},
  reconcile: false,
});

/** Basic credentials `admin:PASSWORD`, checked as a shop's login would. */
const signedIn = (request: Request) => request.headers.get('authorization') === `Basic ${btoa(`admin:${PASSWORD}`)}`;

before(async () => {
  const ledger = createLedgerPage({ stores, gateway, authorize: signedIn });
  const payHandler = toNodeHandler(payments);
  // As examples/express does: a 401 that asks the browser for Basic credentials.
  const ledgerHandler = toNodeHandler({
    handler: async (request) => {
      const response = await ledger(request);
      if (response.status === 401) response.headers.set('www-authenticate', 'Basic realm="Payments"');
      return response;
    },
  });
  origin = await listen(
    (request, response) =>
      void (request.url?.startsWith('/admin/payments') ? ledgerHandler : payHandler)(request, response),
  );
  const started = await fetch(`${origin}/pay/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'ledger-browser-0001' },
    body: JSON.stringify({ ...USSD_REQUEST, mobileNumber: '08035550199' }),
  });
  const { order } = (await started.json()) as { order: { paymentReference: string; statusToken: string } };
  ({ paymentReference: reference, statusToken } = order);
  chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
  await payments.close();
  sandbox.close();
  await close();
});

async function signedInPage(): Promise<Page> {
  const page = await chromium.browser.newPage();
  await page.setBypassCSP(true); // for axe's script only: the page itself runs none
  await page.authenticate({ username: 'admin', password: PASSWORD });
  return page;
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const { violations } = await (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }
    ).axe.run();
    return violations.map((violation) => violation.id);
  });
}

describe('the ledger page in headless Chromium, behind Basic auth', () => {
  it('refuses a request without the password, asking for it', async () => {
    const response = await fetch(`${origin}/admin/payments`);
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /^Basic /);
    assert.doesNotMatch(await response.text(), new RegExp(reference));
  });

  it('lists the payment, finds it by part of its phone number, shows its history, axe-clean, with no token or key', async () => {
    const page = await signedInPage();
    await page.goto(`${origin}/admin/payments`);
    assert.match(await page.content(), new RegExp(reference));
    assert.deepEqual(await axeViolations(page), [], 'the list');
    await page.type('input[name="search"]', '5550199');
    await Promise.all([page.waitForNavigation(), page.click('form[role="search"] button')]);
    assert.match(await page.content(), new RegExp(reference), 'found by part of the phone number');
    await Promise.all([page.waitForNavigation(), page.click(`a[href*="${reference}"]`)]);
    const html = await page.content();
    assert.match(html, /instructions/, 'its history');
    assert.deepEqual(await axeViolations(page), [], 'the payment');
    // On a phone: nothing wider than 320 px, on the list or the payment.
    await page.setViewport({ width: 320, height: 640 });
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 320, 'the payment fits 320 px');
    await page.goto(`${origin}/admin/payments`);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 320, 'the list fits 320 px');
    assert.deepEqual(await axeViolations(page), [], 'the list at 320 px');
    for (const secret of [statusToken, SANDBOX_SECRET_KEY, SANDBOX_PUBLIC_KEY])
      assert.ok(!html.includes(secret), 'no token or key');
    await page.close();
  });

  it('refuses an action whose form lost its CSRF token, and takes one from the page itself', async () => {
    const page = await signedInPage();
    await page.goto(`${origin}/admin/payments?ref=${reference}`);
    // The same form, posted without its token (as a forged post would be): refused.
    await page.evaluate(() => document.querySelectorAll('input[name="csrf"]').forEach((input) => input.remove()));
    const refused = await Promise.all([page.waitForNavigation(), page.click('form[method="post"] button')]);
    assert.equal(refused[0]?.status(), 403);
    await page.goto(`${origin}/admin/payments?ref=${reference}`);
    const asked = await Promise.all([page.waitForNavigation(), page.click('form[method="post"] button')]);
    assert.equal(asked[0]?.status(), 200, `the page’s own form, after its redirect: ${await page.content()}`);
    assert.match(await page.content(), /role="status"/, 'says what it did');
    await page.close();
  });
});
