/**
 * A merchant's app, made the way a merchant makes one: the package as `npm pack` ships it, installed
 * with npm into a fresh directory outside this repository, built for production with Vite, served
 * on 127.0.0.1 and opened in headless Chromium.
 *
 * No network: before `npm install --offline`, the package's own dependencies (lit, zod, …, read from
 * package.json "dependencies") are linked in from this repository's node_modules, where npm finds
 * them installed and in range, as it would find them in its cache. The app's own tools (vite, vue,
 * @vitejs/plugin-vue) are linked after the install, as a merchant has them from their own package.json.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_FLAGS, findChromium, missingChromiumMessage } from '../../scripts/ensure-chromium.mjs';

const run = promisify(execFile);

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixturesDir = join(repoRoot, 'test', 'fixtures');
const packageJson = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  sideEffects: string[];
  dependencies: Record<string, string>;
};

export type PackedPackage = {
  /** The .tgz that `npm pack` wrote. */
  tarball: string;
  /** Every path inside it, relative to the package root (`dist/index.js`, …). */
  files: string[];
  close(): Promise<void>;
};

/** `npm pack` of this repository as built (`npm run build` first), into a temporary directory. */
export async function packPackage(): Promise<PackedPackage> {
  const destination = await mkdtemp(join(tmpdir(), 'pay-widget-pack-'));
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: repoRoot });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    if (!packed) throw new Error('npm pack wrote no package');
    const files = packed.files.map((file) => file.path);
    if (!files.includes('dist/index.js'))
      throw new Error('the package has no dist/index.js: run `npm run build` first');
    return {
      tarball: join(destination, packed.filename),
      files,
      close: () => rm(destination, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(destination, { recursive: true, force: true });
    throw error;
  }
}

/** A package.json "sideEffects" glob as a test of a package-relative path, the way bundlers read it. */
export function sideEffectsGlob(glob: string): RegExp {
  const escaped = glob
    .replace(/^\.\//, '')
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '(.*/)?')
    .replace(/\*/g, '[^/]*');
  return new RegExp(`^${escaped}$`);
}

/** The package's "sideEffects" list, each entry as a test. */
export const sideEffects = packageJson.sideEffects.map(sideEffectsGlob);

async function link(app: string, name: string): Promise<void> {
  const target = join(app, 'node_modules', name);
  await mkdir(dirname(target), { recursive: true });
  await symlink(join(repoRoot, 'node_modules', name), target, 'dir');
}

export type ConsumerApp = { dir: string; close(): Promise<void> };

/**
 * A fresh app in a temporary directory: the files of test/fixtures/<fixture> (or of `source`, such
 * as an example, without its node_modules and keeping its package.json scripts), `pay-widget`
 * installed from the tarball with npm, and `tools` (packages the app itself depends on) available to it.
 */
export async function createConsumerApp(
  tarball: string,
  fixture: string,
  tools: string[] = [],
  source = join(fixturesDir, fixture),
): Promise<ConsumerApp> {
  const dir = await mkdtemp(join(tmpdir(), `pay-widget-${fixture}-`));
  try {
    await cp(source, dir, { recursive: true, filter: (path) => !path.split(sep).includes('node_modules') });
    const own = (await readFile(join(source, 'package.json'), 'utf8').then(JSON.parse, () => ({}))) as {
      scripts?: unknown;
    };
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: fixture, private: true, type: 'module', scripts: own.scripts }),
    );
    for (const name of Object.keys(packageJson.dependencies)) await link(dir, name);
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: dir });
    for (const name of tools) await link(dir, name);
    return { dir, close: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** `vite build` of the app, for production, with its own vite.config.js when it has one. */
export async function buildApp(dir: string): Promise<string> {
  const { build } = await import('vite');
  await build({ root: dir, mode: 'production', logLevel: 'warn' });
  return join(dir, 'dist');
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export type Route = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;
export type Served = { origin: string; close(): Promise<void> };

/** Serves `root` (the built app) on 127.0.0.1, with `routes` (path → handler) before the files. */
export async function serve(root: string, routes: Record<string, Route> = {}): Promise<Served> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const route = routes[path];
    if (route) return route(request, response);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root + sep)) return response.writeHead(403).end();
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((closed) => {
        server.close(() => closed());
        server.closeAllConnections(); // the browser's keep-alive connections would hold it open
      }),
  };
}

/** The system's headless Chromium (`node scripts/ensure-chromium.mjs` installs it on CI). */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const executablePath = (findChromium as () => string | undefined)();
  if (!executablePath) {
    throw new Error(
      `${(missingChromiumMessage as () => string)()} (CI installs it with: node scripts/ensure-chromium.mjs)`,
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'pay-widget-consumer-chromium-'));
  const browser = await puppeteer.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS], userDataDir });
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
