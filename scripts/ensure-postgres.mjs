#!/usr/bin/env node
/**
 * Finds PostgreSQL's server programs (`initdb`, `pg_ctl`, `postgres`) for the PostgreSQL ledger's
 * tests and the server bench.
 *
 *   import { findPostgres } from './scripts/ensure-postgres.mjs';
 *   const programs = findPostgres(); // { bin, initdb, pgCtl, postgres }, or undefined when none is installed
 *
 * Run as a script (`node scripts/ensure-postgres.mjs`, which `npm test` runs before the node tests)
 * it prints the folder it found them in. When there are none and we are root on Debian/Ubuntu (a CI
 * container), it installs the `postgresql` package with apt-get, says so, and looks again;
 * otherwise it exits 1 with one line saying what to install or to set POSTGRES_BIN. The tests
 * `initdb` their own cluster into a temporary folder and start it on a free 127.0.0.1 port; nothing
 * here starts a service.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureProgram, isExecutable, onPath, runWhenMain } from './system-program.mjs';

const PROGRAMS = ['initdb', 'pg_ctl', 'postgres'];

/** Debian and Ubuntu keep them in /usr/lib/postgresql/<version>/bin, newest version first here. */
function debianBinFolders() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, 'bin'));
}

const hasAll = (bin) => PROGRAMS.every((name) => isExecutable(join(bin, name)));

const programsIn = (bin) => ({
  bin,
  initdb: join(bin, 'initdb'),
  pgCtl: join(bin, 'pg_ctl'),
  postgres: join(bin, 'postgres'),
});

/**
 * The folder holding `initdb`, `pg_ctl` and `postgres`: `POSTGRES_BIN` if set (it must hold all
 * three), else Debian's folders, else Homebrew's, else the folder of `initdb` on PATH. Undefined
 * when none is found. Never installs anything.
 * @returns {{ bin: string, initdb: string, pgCtl: string, postgres: string } | undefined}
 */
export function findPostgres() {
  const fromEnv = process.env.POSTGRES_BIN?.trim();
  if (fromEnv) return hasAll(fromEnv) ? programsIn(fromEnv) : undefined;
  const onPathBin = onPath('initdb') && dirname(onPath('initdb'));
  const candidates = [...debianBinFolders(), '/opt/homebrew/bin', '/usr/local/bin', onPathBin].filter(Boolean);
  const bin = candidates.find(hasAll);
  return bin ? programsIn(bin) : undefined;
}

/** One line that tells a person what to do. */
export function missingPostgresMessage() {
  if (process.env.POSTGRES_BIN?.trim()) {
    return `POSTGRES_BIN=${process.env.POSTGRES_BIN} does not hold initdb, pg_ctl and postgres; point it at PostgreSQL's bin folder.`;
  }
  return (
    'No PostgreSQL server found (initdb, pg_ctl, postgres): install it (Debian/Ubuntu: sudo apt-get install postgresql; ' +
    'macOS: brew install postgresql) or set POSTGRES_BIN to the folder holding them.'
  );
}

/** findPostgres(), installing Debian's `postgresql` with apt-get first when none is found and we may. */
export function ensurePostgres({ log = console.log } = {}) {
  return ensureProgram({
    name: 'ensure-postgres',
    find: findPostgres,
    envVar: 'POSTGRES_BIN',
    aptPackage: 'postgresql',
    what: 'PostgreSQL server',
    log,
  });
}

runWhenMain(import.meta.url, {
  name: 'ensure-postgres',
  ensure: () => ensurePostgres()?.bin,
  missing: missingPostgresMessage,
});
