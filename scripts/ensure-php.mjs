#!/usr/bin/env node
/**
 * Finds `php` (the CLI, with its built-in server) for the test that runs `pay-widget check` against
 * the PHP back end in examples/php/.
 *
 *   import { findPhp } from './scripts/ensure-php.mjs';
 *   const executable = findPhp(); // string, or undefined when none is installed
 *
 * Run as a script (`node scripts/ensure-php.mjs`) it prints the path it found. When there is none
 * and we are root on Debian/Ubuntu (a CI container), it installs the `php-cli` package with apt-get
 * (the example needs nothing else: no curl, no framework), says so, and looks again; otherwise it
 * exits 1 with one line saying what to install or to set PHP_BINARY.
 */
import { ensureProgram, isExecutable, onPath, runWhenMain } from './system-program.mjs';

const KNOWN_PATHS = ['/usr/bin/php', '/usr/local/bin/php', '/opt/homebrew/bin/php'];

/**
 * The php to use: `PHP_BINARY` if set (it must exist), else the usual install paths, else PATH.
 * Undefined when none is found. Never installs anything.
 * @returns {string | undefined}
 */
export function findPhp() {
  const fromEnv = process.env.PHP_BINARY?.trim();
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  return KNOWN_PATHS.find(isExecutable) ?? onPath('php');
}

/** One line that tells a person what to do. */
export function missingPhpMessage() {
  if (process.env.PHP_BINARY?.trim())
    return `PHP_BINARY=${process.env.PHP_BINARY} is not an executable file; point it at php.`;
  return 'No php found: install PHP 8 (Debian/Ubuntu: sudo apt-get install php-cli; macOS: brew install php) or set PHP_BINARY to its executable.';
}

/** findPhp(), installing Debian's `php-cli` with apt-get first when none is found and we may. */
export function ensurePhp({ log = console.log } = {}) {
  return ensureProgram({
    name: 'ensure-php',
    find: findPhp,
    envVar: 'PHP_BINARY',
    aptPackage: 'php-cli',
    what: 'php',
    log,
  });
}

runWhenMain(import.meta.url, { name: 'ensure-php', ensure: ensurePhp, missing: missingPhpMessage });
