// The documentation site's "The widget, live" page, as built by `npm run docs:build` (which npm test
// runs before the Node tests): served on 127.0.0.1 and opened in headless Chromium, every widget on
// it reaches the state its caption names, from the package's own build, with no request leaving
// the page's origin and no script error.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS, findChromium, missingChromiumMessage } from '../../scripts/ensure-chromium.mjs';
import { repoRoot, serve, type Served } from './consumer-app.js';

const site = join(repoRoot, 'docs', '.vitepress', 'dist');
const WAIT_MS = 30_000;

/** What each state's widget shows: its heading, or the text of its pay button. */
const EXPECTED: [state: string, text: string][] = [
  ['form', 'Pay ₦5,000.00'],
  ['invalid', 'Pay ₦5,000.00'],
  ['busy', 'Starting your payment…'],
  ['ussd', 'Dial this code to pay'],
  ['transfer', 'Transfer to this account'],
  ['declined', 'The payment could not be started'],
  ['unreachable', 'The payment could not be started'],
  ['received', 'Payment received'],
  ['failed', 'Payment failed'],
];

let served: Served | undefined;
let browser: Browser | undefined;
let page: Page;
const foreign: string[] = [];
const errors: string[] = [];

before(async () => {
  assert.ok(
    existsSync(join(site, 'states.html')),
    'docs/.vitepress/dist/states.html: run `npm run build && npm run docs:build` first',
  );
  served = await serve(site);
});

after(async () => {
  await browser?.close().catch(() => undefined);
  await served?.close().catch(() => undefined);
});

/** The shown text of the widget in `state` (its first, when several are). */
function shown(state: string): Promise<string> {
  return page.$eval(`pay-widget[data-state="${state}"]`, (el) => {
    const root = el.shadowRoot;
    return (
      root?.querySelector('h2')?.textContent ??
      root?.querySelector('button[part~="submit"]')?.textContent ??
      ''
    ).trim();
  });
}

describe('the docs page "The widget, live"', () => {
  it('shows the widget in each state, offline', async (t) => {
    const executablePath = findChromium();
    if (!executablePath) return t.skip(missingChromiumMessage());
    browser = await puppeteer.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS] });
    page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${served!.origin}/`) && !url.startsWith('data:')) foreign.push(url);
    });
    await page.goto(`${served!.origin}/states.html`, { waitUntil: 'load' });

    for (const [state, text] of EXPECTED) {
      await page
        .waitForFunction(
          (s, wanted) => {
            const root = document.querySelector(`pay-widget[data-state="${s}"]`)?.shadowRoot;
            return (
              (
                root?.querySelector('h2')?.textContent ??
                root?.querySelector('button[part~="submit"]')?.textContent ??
                ''
              ).trim() === wanted
            );
          },
          { timeout: WAIT_MS },
          state,
          text,
        )
        .catch(async () => assert.fail(`the ${state} widget shows "${await shown(state)}", not "${text}"`));
    }
    const invalidFields = await page.$eval(
      'pay-widget[data-state="invalid"]',
      (el) => el.shadowRoot!.querySelectorAll('[aria-invalid="true"]').length,
    );
    assert.ok(invalidFields >= 3, `the empty form marks its fields invalid (${invalidFields})`);
    const dialCode = await page.$eval('pay-widget[data-state="ussd"]', (el) =>
      el.shadowRoot!.querySelector('[part~="dial-code"]')?.textContent?.trim(),
    );
    assert.equal(dialCode, '*737*000*4412#');
    assert.deepEqual(foreign, [], 'no request leaves the page’s origin');
    assert.deepEqual(errors, [], 'no script error');
  });
});
