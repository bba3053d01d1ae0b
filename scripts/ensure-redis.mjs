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
import { ensureProgram, isExecutable, onPath, runWhenMain } from './system-program.mjs';

const KNOWN_PATHS = [
  '/usr/bin/redis-server',
  '/usr/local/bin/redis-server',
  '/opt/homebrew/bin/redis-server',
  '/usr/sbin/redis-server',
];

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

/** findRedisServer(), installing Debian's `redis-server` with apt-get first when none is found and we may. */
export function ensureRedisServer({ log = console.log } = {}) {
  return ensureProgram({
    name: 'ensure-redis',
    find: findRedisServer,
    envVar: 'REDIS_SERVER',
    aptPackage: 'redis-server',
    what: 'redis-server',
    log,
  });
}

runWhenMain(import.meta.url, { name: 'ensure-redis', ensure: ensureRedisServer, missing: missingRedisMessage });
