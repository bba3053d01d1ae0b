// The server recipes of docs/recipes.md, each run as its users run it: test/fixtures/recipes (the shared
// endpoints in pay.mjs, one file per runtime) copied into a fresh app outside the repository, the
// packed package and the runtimes installed there from the npm registry once, then each runtime
// started with its npm script and driven over 127.0.0.1: session → instructions, replay → the
// same answer, status → the server's amount, the sandbox's "customer paid" → onPaid once through
// the webhook, and the caller's address given to beforeInitiate. In workerd, where no timer runs,
// the scheduled event's sweep() settles a payment whose notification was lost. Run after `npm run build`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from './consumer-app.js';
import { paymentLoop } from './payment-loop.js';
import { installRegistryApp } from './registry-app.js';
import { statusBody, USSD_REQUEST } from './server-fixtures.js';
import { startServer, type StartedServer } from './started-server.js';

const run = promisify(execFile);
const fixture = join(repoRoot, 'test', 'fixtures', 'recipes');

/** What the recipes import or run, from the registry; Hono and esbuild at the versions this repository uses. */
const RUNTIMES = { deno: '^2.5.0', bun: '^1.3.0', miniflare: '^4.20250101.0' };
const REPOSITORY_VERSIONS = ['hono', '@hono/node-server', 'esbuild'];

const closers: (() => Promise<void>)[] = [];
let app: string;

before(async () => {
  const versions = Object.fromEntries(
    await Promise.all(
      REPOSITORY_VERSIONS.map(async (name) => [
        name,
        `^${JSON.parse(await readFile(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version}`,
      ]),
    ),
  );
  // Install scripts stay off: the runtimes' binaries come in their platform packages. Bun's alone
  // needs its postinstall (it puts the platform binary in place of its bin/bun.exe stub): allowed
  // for bun only; should it fail, the Bun recipe is skipped with the reason.
  const installed = await installRegistryApp(fixture, { ...versions, ...RUNTIMES });
  closers.push(installed.close);
  app = installed.dir;
  await run('npm', ['rebuild', 'bun', '--foreground-scripts'], { cwd: app }).catch(() => undefined);
});

after(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

/** Why `binary` cannot run here (its platform package missing), or undefined when it runs. */
async function missing(binary: string): Promise<string | undefined> {
  try {
    await run(join(app, 'node_modules', '.bin', binary), ['--version'], { cwd: app });
    return undefined;
  } catch (error) {
    return `${binary} from npm does not run on this platform (${(error as Error).message.split('\n')[0]})`;
  }
}

/** Starts `script` (after checking `binary` runs), drives the loop and then `more`, stops it. */
async function recipe(
  t: TestContext,
  script: string,
  binary?: string,
  more?: (server: StartedServer) => Promise<void>,
): Promise<void> {
  const skip = binary && (await missing(binary));
  if (skip) return t.skip(skip);
  const server = await startServer(app, script, /listening on http:\/\/127\.0\.0\.1:\d+/);
  try {
    const extra = more?.(server);
    await paymentLoop(server);
    await extra;
  } finally {
    await server.close();
  }
}

/** The reconciler's first look at a payment, after its creation (src/server/ledger/schedule.ts), and some slack. */
const FIRST_CHECK_MS = 60_000 + 2_000;

/**
 * A payment paid on the customer's phone whose notification never arrives, then the worker's
 * scheduled event (miniflare's trigger, as a cron would) once the first check is due: its sweep()
 * asks the gateway, settles the payment and runs onPaid, once. No status poll meanwhile.
 */
async function sweptWithoutWebhook(server: StartedServer): Promise<void> {
  const started = Date.now();
  const session = await fetch(`${server.origin}/pay/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'recipe-swept-000001' },
    body: JSON.stringify(USSD_REQUEST),
  });
  assert.equal(session.status, 200, await session.clone().text());
  const { order } = (await session.json()) as {
    order: { paymentReference: string; statusToken: string; statusUrl: string };
  };
  const reference = order.paymentReference;
  const paid = await fetch(`${server.origin}/pay/simulate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentReference: reference, webhookLost: true }),
  });
  assert.equal(paid.status, 204);

  const early = await fetch(`${server.origin}/cdn-cgi/handler/scheduled`);
  assert.equal(early.status, 200, await early.text());
  await new Promise((resolve) => setTimeout(resolve, started + FIRST_CHECK_MS - Date.now()));
  assert.ok(
    !server.output().includes(`paid ${reference} `),
    'nothing settled it before the sweep: no webhook, no poll',
  );

  const trigger = await fetch(`${server.origin}/cdn-cgi/handler/scheduled`);
  assert.equal(trigger.status, 200, await trigger.text());
  await server.printed(new RegExp(`paid ${reference} 5000.00 NGN`));
  await server.printed(/sweep \{"checked":1,"paid":1,/);
  const statusUrl = new URL(
    `${order.statusUrl}?paymentReference=${encodeURIComponent(reference)}&statusToken=${encodeURIComponent(order.statusToken)}`,
    `${server.origin}/pay/session`,
  );
  assert.deepEqual(await statusBody(await fetch(statusUrl)), { status: 'SUCCESS', amount: '5000.00', currency: 'NGN' });
  assert.equal(server.output().split(`paid ${reference} `).length - 1, 1, 'onPaid ran once');
}

describe('the server recipes (docs/recipes.md), from the packed package in a fresh app', () => {
  it('Hono on Node (@hono/node-server): npm run start:hono', (t) => recipe(t, 'start:hono'));
  it('Deno (the deno npm package): npm run start:deno', (t) => recipe(t, 'start:deno', 'deno'));
  it('Bun (the bun npm package): npm run start:bun', (t) => recipe(t, 'start:bun', 'bun'));
  it('workerd through miniflare, bundled with esbuild: npm run start:workerd; sweep() in the scheduled event settles a payment whose webhook was lost', (t) =>
    recipe(t, 'start:workerd', 'workerd', sweptWithoutWebhook));
});
