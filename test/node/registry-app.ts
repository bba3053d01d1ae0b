// A merchant's app with its tools from the npm registry, as a merchant installs one: the files of
// `source` (a fixture or an example, without its node_modules or build output) copied into a fresh
// directory outside this repository, its package.json given the packed package in place of any
// `pay-widget` it names, and `npm install` run once (npm's cache first, no install scripts, no audit).
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { packPackage } from './consumer-app.js';

const run = promisify(execFile);
const BUILD_OUTPUT = new Set(['node_modules', '.next']);

export type RegistryApp = { dir: string; close(): Promise<void> };

/** Packs this repository (`npm run build` first) and installs `source` with it and `dependencies`. */
export async function installRegistryApp(
  source: string,
  dependencies: Record<string, string> = {},
): Promise<RegistryApp> {
  const pack = await packPackage();
  const dir = await mkdtemp(join(tmpdir(), 'pay-widget-app-'));
  const close = async () => {
    await rm(dir, { recursive: true, force: true });
    await pack.close();
  };
  try {
    const own = (path: string) =>
      !path
        .slice(source.length)
        .split(sep)
        .some((part) => BUILD_OUTPUT.has(part));
    await cp(source, dir, { recursive: true, filter: own });
    const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8'));
    manifest.private = true;
    manifest.type = 'module';
    manifest.dependencies = { ...manifest.dependencies, ...dependencies, 'pay-widget': `file:${pack.tarball}` };
    await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir });
    return { dir, close };
  } catch (error) {
    await close();
    throw error;
  }
}
