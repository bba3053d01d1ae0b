// The README's Next.js recipe as examples/next runs it: the example's files copied into a fresh app
// outside the repository with the packed package in place of `file:../..`, Next and React installed
// from the npm registry (install scripts off: Next's compiler comes in its platform package,
// @next/swc-linux-x64-gnu here), then `npm run sandbox` (`next build`, then `next start` on
// 127.0.0.1) driven over HTTP as the other recipes are: session → instructions, replay → the same
// answer, status → the server's amount, the sandbox's "customer paid" → onPaid once through the
// webhook, and the caller's address (X-Forwarded-For, as `next start` sets it) given to
// beforeInitiate. Run after `npm run build`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot } from './consumer-app.js';
import { paymentLoop } from './payment-loop.js';
import { installRegistryApp, type RegistryApp } from './registry-app.js';
import { startServer } from './started-server.js';

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
  it('npm run sandbox: next build, next start, the page and the payment loop over 127.0.0.1', async () => {
    const server = await startServer(app, 'sandbox', /Ready in/, { env: NEXT_ENV, readyWaitMs: BUILD_WAIT_MS });
    try {
      const page = await fetch(`${server.origin}/`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<pay-widget session-url="\/pay\/session" status-url="\/pay\/status"/);
      await paymentLoop(server);
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
