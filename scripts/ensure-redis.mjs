#!/usr/bin/env node
/**
 * Finds `redis-server` for the Redis store's tests and the server bench.
 *
 *   import { findRedisServer } from './scripts/ensure-redis.mjs';
 *   const executable = findRedisServer(); // string, or undefined when none is installed
 *
 * Run as a script (`node scripts/ensure-redis.mjs`, which `npm test` runs before the node tests) it
 * prints the path it found. When there is none and we are root on Debian/Ubuntu (a CI container),
 * it installs the `redis-server` package with apt-get, says so, and looks again; otherwise it exits
 * 1 with one line saying what to install or to set REDIS_SERVER. The tests start their own
 * redis-server on a free 127.0.0.1 port without persistence; nothing here starts a service.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const KNOWN_PATHS = ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/opt/homebrew/bin/redis-server', '/usr/sbin/redis-server'];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * The redis-server to use: `REDIS_SERVER` if set (it must exist), else the usual install paths, else
 * PATH. Undefined when none is found. Never installs anything.
 * @returns {string | undefined}
 */
export function findRedisServer() {
  const fromEnv = process.env.REDIS_SERVER?.trim();
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  return KNOWN_PATHS.find(isExecutable) ?? onPath('redis-server');
}

/** One line that tells a person what to do. */
export function missingRedisMessage() {
  if (process.env.REDIS_SERVER?.trim()) {
    return `REDIS_SERVER=${process.env.REDIS_SERVER} is not an executable file; point it at redis-server.`;
  }
  return (
    'No redis-server found: install Redis (Debian/Ubuntu: sudo apt-get install redis-server; ' +
    'macOS: brew install redis) or set REDIS_SERVER to its executable.'
  );
}

function canAptInstall() {
  return (
    process.platform === 'linux' &&
    typeof process.getuid === 'function' &&
    process.getuid() === 0 &&
    existsSync('/etc/debian_version') &&
    !process.env.REDIS_SERVER?.trim()
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

/** findRedisServer(), installing Debian's `redis-server` with apt-get first when none is found and we may. */
export function ensureRedisServer({ log = console.log } = {}) {
  const found = findRedisServer();
  if (found || !canAptInstall()) return found;
  log('ensure-redis: no redis-server found; installing Debian package `redis-server` with apt-get…');
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-q', 'redis-server']);
  return findRedisServer();
}

const isMain = (() => {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (isMain) {
  try {
    const found = ensureRedisServer();
    if (!found) {
      console.error(`ensure-redis: ${missingRedisMessage()}`);
      process.exit(1);
    }
    console.log(found);
  } catch (error) {
    console.error(`ensure-redis: installing redis-server failed (${error.message}). ${missingRedisMessage()}`);
    process.exit(1);
  }
}
