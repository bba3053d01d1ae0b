// The README's server recipes, each run as its users run it: test/fixtures/recipes (the shared
// endpoints in pay.mjs, one file per runtime) copied into a fresh app outside the repository, the
// packed package and the runtimes installed there from the npm registry once, then each runtime
// started with its npm script and driven over 127.0.0.1: session → instructions, replay → the
// same answer, status → the server's amount, the sandbox's "customer paid" → onPaid once through
// the webhook, and the caller's address given to beforeInitiate. Run after `npm run build`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { packPackage, repoRoot } from './consumer-app.js';
import { USSD_REQUEST } from './server-fixtures.js';
import { startServer, type StartedServer } from './started-server.js';

const run = promisify(execFile);
const fixture = join(repoRoot, 'test', 'fixtures', 'recipes');

/** What the recipes import or run, from the registry; Hono and esbuild at the versions this repository uses. */
const RUNTIMES = { deno: '^2.5.0', bun: '^1.3.0', miniflare: '^4.20250101.0' };
const REPOSITORY_VERSIONS = ['hono', '@hono/node-server', 'esbuild'];

const closers: (() => Promise<void>)[] = [];
let app: string;

before(async () => {
  const pack = await packPackage();
  closers.push(pack.close);
  app = await mkdtemp(join(tmpdir(), 'pay-widget-recipes-'));
  closers.push(() => rm(app, { recursive: true, force: true }));
  await cp(fixture, app, { recursive: true });
  const versions = Object.fromEntries(
    await Promise.all(
      REPOSITORY_VERSIONS.map(async (name) => [name, `^${JSON.parse(await readFile(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version}`]),
    ),
  );
  const { scripts } = JSON.parse(await readFile(join(fixture, 'package.json'), 'utf8'));
  const dependencies = { 'pay-widget': `file:${pack.tarball}`, ...versions, ...RUNTIMES };
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'recipes', private: true, type: 'module', scripts, dependencies }));
  // Install scripts stay off: the runtimes' binaries come in their platform packages. Bun's alone
  // needs its postinstall (it puts the platform binary in place of its bin/bun.exe stub): allowed
  // for bun only; should it fail, the Bun recipe is skipped with the reason.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app });
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

function session(server: StartedServer, key: string): Promise<Response> {
  return fetch(`${server.origin}/pay/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(USSD_REQUEST),
  });
}

/** The payment loop against the recipe's server, and the address beforeInitiate was given. */
async function paymentLoop(server: StartedServer): Promise<void> {
  const first = await session(server, 'recipe-000000001');
  const text = await first.text();
  assert.equal(first.status, 200, text);
  const body = JSON.parse(text) as { order: { paymentReference: string; amount: string; currency: string; statusToken: string } };
  assert.deepEqual([body.order.amount, body.order.currency], ['5000.00', 'NGN'], 'the server’s amount, not the page’s');
  assert.match(text, /\*000\*058\*/, 'USSD instructions');

  const replay = await session(server, 'recipe-000000001');
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal(await replay.text(), text, 'a replay gets the same answer');

  const reference = body.order.paymentReference;
  const statusUrl = `${server.origin}/pay/status?paymentReference=${encodeURIComponent(reference)}&statusToken=${encodeURIComponent(body.order.statusToken)}`;
  assert.deepEqual(await (await fetch(statusUrl)).json(), { status: 'PENDING', amount: '5000.00', currency: 'NGN' });

  const paid = await fetch(`${server.origin}/pay/simulate`, { method: 'POST', body: JSON.stringify({ paymentReference: reference }) });
  assert.equal(paid.status, 204);
  await server.printed(new RegExp(`webhook \\{"type":"paid","paymentReference":"${reference}"`));
  await server.printed(new RegExp(`paid ${reference} 5000.00 NGN`));
  assert.deepEqual(await (await fetch(statusUrl)).json(), { status: 'SUCCESS', amount: '5000.00', currency: 'NGN' });
  assert.equal(server.output().split(`paid ${reference} `).length - 1, 1, 'onPaid ran once');

  const addresses = [...server.output().matchAll(/^session from (.*)$/gm)].map((match) => match[1]);
  assert.ok(addresses.length >= 1, server.output());
  assert.deepEqual(new Set(addresses), new Set(['127.0.0.1']), 'beforeInitiate gets the caller’s address');
}

/** Starts `script` (after checking `binary` runs), drives the loop, stops it. */
async function recipe(t: TestContext, script: string, binary?: string): Promise<void> {
  const skip = binary && (await missing(binary));
  if (skip) return t.skip(skip);
  const server = await startServer(app, script, /listening on http:\/\/127\.0\.0\.1:\d+/);
  try {
    await paymentLoop(server);
  } finally {
    await server.close();
  }
}

describe('the README’s server recipes, from the packed package in a fresh app', () => {
  it('Hono on Node (@hono/node-server): npm run start:hono', (t) => recipe(t, 'start:hono'));
  it('Deno (the deno npm package): npm run start:deno', (t) => recipe(t, 'start:deno', 'deno'));
  it('Bun (the bun npm package): npm run start:bun', (t) => recipe(t, 'start:bun', 'bun'));
  it('workerd through miniflare, bundled with esbuild: npm run start:workerd', (t) => recipe(t, 'start:workerd', 'workerd'));
});
