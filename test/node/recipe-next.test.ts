// The README's Next.js recipe as examples/next runs it: the example's files copied into a fresh app
// outside the repository with the packed package in place of `file:../..`, Next and React installed
// from the npm registry (install scripts off: Next's compiler comes in its platform package,
// @next/swc-linux-x64-gnu here), then `npm run sandbox` (`next build`, then `next start` on
// 127.0.0.1) driven over HTTP as the other recipes are: session → instructions, replay → the same
// answer, status → the server's amount, the sandbox's "customer paid" → onPaid once through the
// webhook, and the caller's address (X-Forwarded-For, as `next start` sets it) given to
// beforeInitiate; then a customer pays on the page in headless Chromium, and /pay/simulate refuses a
// caller from elsewhere. Without the gateway's variables, or with some, `npm start` stops at once
// (issue 24, defect 7). Run after `npm run build`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from './consumer-app.js';
import { payInTheBrowser } from './pay-in-browser.js';
import { paymentLoop } from './payment-loop.js';
import { installRegistryApp, type RegistryApp } from './registry-app.js';
import { runToExit, startServer } from './started-server.js';

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

describe('examples/next (the README’s Next.js recipe), from the packed package in a fresh app', () => {
  it('npm run sandbox: next build, next start, the payment loop over 127.0.0.1, and the page in a browser', async () => {
    const server = await startServer(app, 'sandbox', /Ready in/, {
      env: { ...NEXT_ENV, PAY_ADMIN_PASSWORD: 'staff-only-0123' },
      readyWaitMs: BUILD_WAIT_MS,
    });
    try {
      const page = await fetch(`${server.origin}/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<pay-widget session-url="\/pay\/session" amount=/, 'session-url only');
      await paymentLoop(server);
      await payInTheBrowser(server);
      // The ledger page, for the shop's staff: refused without the password, asking for it; then the payments made
      // above.
      const refused = await fetch(`${server.origin}/admin/payments`);
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate') ?? '', /^Basic /);
      const ledger = await fetch(`${server.origin}/admin/payments`, {
        headers: { authorization: `Basic ${btoa('admin:staff-only-0123')}` },
      });
      assert.equal(ledger.status, 200);
      assert.match(await ledger.text(), /pw-[0-9a-f]{32}/, 'the payments made above are listed');
      // From elsewhere (as next start reports the caller), the sandbox's "customer paid" is refused.
      const elsewhere = await fetch(`${server.origin}/pay/simulate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.5' },
        body: '{"paymentReference":"pw-unknown"}',
      });
      assert.equal(elsewhere.status, 403);
      // Nor does a request that claims this machine but came through a proxy or tunnel, or names another host.
      const forgeries: Record<string, string>[] = [
        { 'x-forwarded-for': '127.0.0.1, 203.0.113.5' },
        { 'cf-connecting-ip': '203.0.113.5' },
        { 'x-forwarded-host': 'shop.example' },
      ];
      for (const headers of forgeries) {
        const forged = await fetch(`${server.origin}/pay/simulate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: '{"paymentReference":"pw-unknown"}',
        });
        assert.equal(forged.status, 403, JSON.stringify(headers));
      }
    } finally {
      await server.close();
    }
  });

  it('npm start without the gateway’s variables, or with some: the server stops at start with one line, never a sandbox', async () => {
    const none = await runToExit(app, 'start', NEXT_ENV);
    assert.equal(none.code, 1, none.output);
    assert.match(
      none.output,
      /^pay-widget example: no gateway: set PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY for the real one, or run npm run sandbox \(PAY_SANDBOX=1\) for the offline sandbox$/m,
    );
    const mistyped = await runToExit(app, 'start', {
      ...NEXT_ENV,
      PAY_BASE_URL: 'https://seerbitapi.com',
      PAY_PUBLIC_KEY: 'pk',
      PAY_SECERT_KEY: 'sk',
    });
    assert.equal(mistyped.code, 1, mistyped.output);
    assert.match(
      mistyped.output,
      /^pay-widget example: PAY_SECRET_KEY not set: the real gateway needs PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY/m,
    );
    // The sandbox on every interface (issue 35, finding 9): refused at start, never served.
    const exposed = await runToExit(app, 'start', { ...NEXT_ENV, PAY_SANDBOX: '1', HOST: '0.0.0.0' });
    assert.equal(exposed.code, 1, exposed.output);
    assert.match(
      exposed.output,
      /^pay-widget example: the sandbox answers "the customer paid" to this machine only: start it on 127\.0\.0\.1/m,
    );
  });
});
