/**
 * What scripts/ensure-chromium.mjs and scripts/ensure-redis.mjs share: finding an executable the
 * way `which` does, installing a Debian package with apt-get when we may (root on Debian/Ubuntu, a
 * CI container), and running as a script that prints the path or one line saying what to install.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function isExecutable(file) {
  try {
    accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `name` on PATH, as `which` would find it. */
export function onPath(name) {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const file = join(dir, name + ext);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

/** Root on Debian/Ubuntu, and the person did not point `envVar` at a program of their own. */
function canAptInstall(envVar) {
  return (
    process.platform === 'linux' &&
    typeof process.getuid === 'function' &&
    process.getuid() === 0 &&
    existsSync('/etc/debian_version') &&
    !process.env[envVar]?.trim()
  );
}

function run(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/**
 * `find()`, after installing the Debian package `aptPackage` when nothing is found and we may.
 * Says so before it installs. Returns the path, or undefined when there is still none.
 */
export function ensureProgram({ name, find, envVar, aptPackage, what, log = console.log }) {
  const found = find();
  if (found || !canAptInstall(envVar)) return found;
  log(`${name}: no ${what} found; installing Debian package \`${aptPackage}\` with apt-get…`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-q', aptPackage]);
  return find();
}

/**
 * When the module at `moduleUrl` is the script node was started with: ensures the program, prints
 * its path, or exits 1 with `missing()` in one line.
 */
export function runWhenMain(moduleUrl, { name, ensure, missing }) {
  let isMain;
  try {
    isMain = realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    isMain = false;
  }
  if (!isMain) return;
  try {
    const found = ensure();
    if (!found) {
      console.error(`${name}: ${missing()}`);
      process.exit(1);
    }
    console.log(found);
  } catch (error) {
    console.error(`${name}: installing failed (${error.message}). ${missing()}`);
    process.exit(1);
  }
}
