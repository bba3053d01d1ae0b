// The README's Next.js recipe as examples/next runs it: the example's files copied into a fresh app
// outside the repository with the packed package in place of `file:../..`, Next and React installed
// from the npm registry (install scripts off: Next's compiler comes in its platform package,
// @next/swc-linux-x64-gnu here), then `npm run sandbox` (`next build`, then `next start` on
// 127.0.0.1) driven over HTTP as the other recipes are: session → instructions, replay → the same
// answer, status → the server's amount, the sandbox's "customer paid" → onPaid once through the
// webhook, and the caller's address (X-Forwarded-For, as `next start` sets it) given to
// beforeInitiate; then a customer pays on the page in headless Chromium. Run after `npm run build`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launchChromium, repoRoot } from './consumer-app.js';
import { paymentLoop } from './payment-loop.js';
import { installRegistryApp, type RegistryApp } from './registry-app.js';
import { startServer, type StartedServer } from './started-server.js';

const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1' };
/** `npm run sandbox` builds before it starts: generous for `next build` on a loaded 2-core machine. */
const BUILD_WAIT_MS = 240_000;

let installed: RegistryApp | undefined;
let app: string;

before(async () => {
  installed = await installRegistryApp(join(repoRoot, 'examples', 'next'));
  app = installed.dir;
});

after(() => installed?.close());

/**
 * As a customer in headless Chromium: the page's client component registers the element, the
 * customer pays by USSD and sees the dial code, the page's pay-initiated listener shows the
 * sandbox's button (React attaches no `onpay-…` prop when it hydrates), and pressing it reaches
 * onPaid through the webhook; the page's own origin passes the session's CORS check.
 */
async function payInTheBrowser(server: StartedServer): Promise<void> {
  const chromium = await launchChromium();
  try {
    const page = await chromium.browser.newPage();
    await page.goto(`${server.origin}/`);
    // The element upgrades once React has hydrated and import('pay-widget') has loaded. `visible`
    // looks on every frame: the default for pierce selectors misses changes inside a shadow root.
    await (await page.waitForSelector('pierce/input[name="paymentType"][value="USSD"]', { visible: true }))!.click();
    await page.type('pierce/#fullName', 'Ada Obi');
    await page.type('pierce/#email', 'ada@example.com');
    await page.type('pierce/#mobileNumber', '08012345678');
    await page.select('pierce/#bankCode', '058');
    await page.click('pierce/button[part~="submit"]');
    const dialCode = await page.waitForSelector('pierce/[part~="dial-code"]', { visible: true }).catch(async (error: Error) => {
      const shown = await page.$eval('pay-widget', (widget) => widget.shadowRoot?.textContent?.replace(/\s+/g, ' '));
      throw new Error(`${error.message}; the widget shows: ${shown}; the server printed:\n${server.output()}`);
    });
    assert.match(await dialCode!.evaluate((element) => element.textContent ?? ''), /\*000\*058\*/);
    const paid = await page.waitForSelector('xpath///button[text()="The customer paid"]');
    await paid!.click();
    await server.printed(/paid pw-\w+ 5000\.00 NGN[\s\S]*paid pw-\w+ 5000\.00 NGN/);
  } finally {
    await chromium.close();
  }
}

describe('examples/next (the README’s Next.js recipe), from the packed package in a fresh app', () => {
  it('npm run sandbox: next build, next start, the payment loop over 127.0.0.1, and the page in a browser', async () => {
    const server = await startServer(app, 'sandbox', /Ready in/, { env: NEXT_ENV, readyWaitMs: BUILD_WAIT_MS });
    try {
      const page = await fetch(`${server.origin}/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<pay-widget session-url="\/pay\/session" status-url="\/pay\/status"/);
      await paymentLoop(server);
      await payInTheBrowser(server);
    } finally {
      await server.close();
    }
  });

  it('npm start (next start, no keys): the sandbox refuses to run in production, so no payment starts', async () => {
    const server = await startServer(app, 'start', /Ready in/, { env: NEXT_ENV });
    try {
      const response = await fetch(`${server.origin}/pay/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(response.status, 500);
      await server.printed(/refusing to start with NODE_ENV=production/);
    } finally {
      await server.close();
    }
  });
});
