// The server recipes of docs/recipes.md, each run as its users run it: test/fixtures/recipes (the shared
// endpoints in pay.mjs, one file per runtime) copied into a fresh app outside the repository, the
// packed package and the runtimes installed there from the npm registry once, then each runtime
// started with its npm script and driven over 127.0.0.1: session → instructions, replay → the
// same answer, status → the server's amount, the sandbox's "customer paid" → onPaid once through
// the webhook, and the caller's address given to beforeInitiate. Run after `npm run build`.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from './consumer-app.js';
import { paymentLoop } from './payment-loop.js';
import { installRegistryApp } from './registry-app.js';
import { startServer } from './started-server.js';

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
      REPOSITORY_VERSIONS.map(async (name) => [name, `^${JSON.parse(await readFile(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version}`]),
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

describe('the server recipes (docs/recipes.md), from the packed package in a fresh app', () => {
  it('Hono on Node (@hono/node-server): npm run start:hono', (t) => recipe(t, 'start:hono'));
  it('Deno (the deno npm package): npm run start:deno', (t) => recipe(t, 'start:deno', 'deno'));
  it('Bun (the bun npm package): npm run start:bun', (t) => recipe(t, 'start:bun', 'bun'));
  it('workerd through miniflare, bundled with esbuild: npm run start:workerd', (t) => recipe(t, 'start:workerd', 'workerd'));
});
