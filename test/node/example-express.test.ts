// examples/express as a newcomer runs it: the packed package installed with the example's files into
// a fresh folder outside the repository, started with `npm run sandbox` against the in-process
// sandbox, and driven over 127.0.0.1: the page and the script's folder, the payment loop (session,
// replay, status, "the customer paid" through the webhook to onPaid once, the caller's address given
// to beforeInitiate), then a customer paying on the page in headless Chromium. The sandbox only when
// asked for (issue 24, defect 7): `npm start` without the gateway's variables, or with some of them,
// stops with one line; /pay/simulate answers only on this machine. Run after `npm run build`.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createConsumerApp, packPackage, repoRoot } from './consumer-app.js';
import { payInTheBrowser } from './pay-in-browser.js';
import { paymentLoop } from './payment-loop.js';
import { runToExit, startServer } from './started-server.js';

const closers: (() => Promise<void>)[] = [];
let app: string;

before(async () => {
  const pack = await packPackage();
  closers.push(pack.close);
  const consumer = await createConsumerApp(
    pack.tarball,
    'example-express',
    ['express', 'libsql'],
    join(repoRoot, 'examples', 'express'),
  );
  closers.push(consumer.close);
  app = consumer.dir;
});

after(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

const startRefused = (env: Record<string, string>) => runToExit(app, 'start', env);

describe('examples/express, installed from the packed package', () => {
  it('npm run sandbox: the page, the script’s whole folder, the payment loop, and a customer paying in a browser', async () => {
    const server = await startServer(app, 'sandbox', /listening on http:\/\/127\.0\.0\.1:\d+ \(sandbox gateway\)/, {
      env: { PAY_ADMIN_PASSWORD: 'staff-only-0123' },
    });
    try {
      const page = await fetch(`${server.origin}/`);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(
        html,
        /<pay-widget session-url="\/pay\/session" amount=/,
        'session-url only: the widget polls the status URL the session answer gives',
      );
      const script = html.match(/<script src="([^"]+)"><\/script>/)![1]!;
      assert.equal((await fetch(new URL(script, server.origin))).status, 200);
      // The files the script loads from beside itself are served from the same folder.
      for (const file of ['pay-widget.after-submit.js', 'pay-widget.yo.js']) {
        assert.equal((await fetch(new URL(file, new URL(script, server.origin)))).status, 200, file);
      }
      await paymentLoop(server);
      await payInTheBrowser(server);
      await access(join(app, '.data', 'ledger.db')); // the durable ledger, in the app's folder
      // The ledger page, for the shop's staff: refused without the password, asking for it; then the payment paid
      // above.
      const refused = await fetch(`${server.origin}/admin/payments`);
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate') ?? '', /^Basic /);
      const wrong = await fetch(`${server.origin}/admin/payments`, {
        headers: { authorization: `Basic ${btoa('admin:guess')}` },
      });
      assert.equal(wrong.status, 401);
      const ledger = await fetch(`${server.origin}/admin/payments`, {
        headers: { authorization: `Basic ${btoa('admin:staff-only-0123')}` },
      });
      assert.equal(ledger.status, 200);
      assert.match(await ledger.text(), /pw-[0-9a-f]{32}/, 'the payments made above are listed');
    } finally {
      await server.close();
    }
  });

  it('npm start with no gateway variables refuses to run the sandbox, in one line', async () => {
    const { code, output } = await startRefused({});
    assert.equal(code, 1);
    assert.equal(
      output.trim(),
      'pay-widget example: no gateway: set PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY for the real one, or run npm run sandbox (PAY_SANDBOX=1) for the offline sandbox',
    );
  });

  it('a mistyped gateway variable stops the server with one line naming it, never a sandbox', async () => {
    const { code, output } = await startRefused({
      PAY_BASE_URL: 'https://seerbitapi.com',
      PAY_PUBLIC_KEY: 'pk',
      PAY_SECERT_KEY: 'sk',
    });
    assert.equal(code, 1);
    assert.equal(
      output.trim(),
      'pay-widget example: PAY_SECRET_KEY not set: the real gateway needs PAY_BASE_URL, PAY_PUBLIC_KEY, PAY_SECRET_KEY (or unset them all and run npm run sandbox)',
    );
    const both = await startRefused({
      PAY_SANDBOX: '1',
      PAY_BASE_URL: 'https://seerbitapi.com',
      PAY_PUBLIC_KEY: 'pk',
      PAY_SECRET_KEY: 'sk',
    });
    assert.equal(both.code, 1);
    assert.match(
      both.output,
      /^pay-widget example: PAY_SANDBOX=1 \(or npm run sandbox\) with the gateway variables set: choose one/,
    );
  });

  it('PAY_SANDBOX=1 on every interface: /pay/simulate answers only on this machine, whatever a remote request claims', async (t) => {
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (!outside) return t.skip('this machine has no address but loopback');
    const server = await startServer(app, 'start', /listening on http:\/\/0\.0\.0\.0:\d+ \(sandbox gateway\)/, {
      env: { PAY_SANDBOX: '1', HOST: '0.0.0.0' },
    });
    try {
      const simulate = (origin: string) =>
        fetch(`${origin}/pay/simulate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"paymentReference":"pw-unknown"}',
        });
      const remote = await simulate(server.origin.replace('127.0.0.1', outside.address));
      assert.equal(remote.status, 403);
      assert.match(await remote.text(), /answers only the person at this machine/);
      assert.equal((await simulate(server.origin)).status, 404, 'from 127.0.0.1 it answers (an unknown reference)');
      // A remote request that names this machine in a header, as a tunnel or a forger would, is refused too.
      const forged = await fetch(`${server.origin.replace('127.0.0.1', outside.address)}/pay/simulate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.1' },
        body: '{"paymentReference":"pw-unknown"}',
      });
      assert.equal(forged.status, 403);
      // And so is one a local tunnel forwards: from this machine's socket, with the tunnel's headers.
      const tunnelled = await fetch(`${server.origin}/pay/simulate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
        body: '{"paymentReference":"pw-unknown"}',
      });
      assert.equal(tunnelled.status, 403);
    } finally {
      await server.close();
    }
  });
});
