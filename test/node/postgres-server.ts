// A throw-away PostgreSQL for the tests and the bench: a cluster `initdb`-ed into a temporary
// folder, started on a free 127.0.0.1 port without fsync, trust authentication, its unix
// socket in that folder. PostgreSQL refuses to run as root, so as root the cluster belongs to the
// `postgres` system user (Debian's package creates it); otherwise to the current user.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPostgres, missingPostgresMessage } from '../../scripts/ensure-postgres.mjs';
import { freePort } from './loopback.js';

/**
 * `url` connects as the superuser `postgres` to the database `postgres`. `stop()` kills the server
 * (an immediate shutdown, as a crash) and keeps its data; `start()` again (same port) rehearses a
 * restart. `close()` stops it and removes the folder.
 */
export type PostgresServer = {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
};

// No fsync: only the operating system crashing would lose data, and tests do not crash it. Commits
// stay synchronous (a write() of the log, cheap without fsync), so a killed server loses no
// committed transaction, as a production one would not: `synchronous_commit=off` would lose the
// last ones and fail a crash test for the wrong reason.
const DURABILITY_OFF = ['-c', 'fsync=off', '-c', 'full_page_writes=off'];

/** Whom the cluster runs as: the `postgres` user when we are root, else ourselves (no options). */
function runAs(): Pick<SpawnOptions, 'uid' | 'gid'> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid === 0)
    throw new Error('running as root, and there is no `postgres` system user to run PostgreSQL as');
  return { uid, gid };
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const programs = findPostgres();
  if (!programs) throw new Error(missingPostgresMessage());
  const user = runAs();
  const folder = mkdtempSync(join(tmpdir(), 'pay-widget-pg-'));
  if (user.uid !== undefined) chownSync(folder, user.uid, user.gid!);
  const data = join(folder, 'data');
  const init = spawnSync(
    programs.initdb,
    ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
    {
      ...user,
      encoding: 'utf8',
    },
  );
  if (init.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${(init.stderr || String(init.error)).slice(-500)}`);
  }
  const port = await freePort();
  let child: ChildProcess | undefined;
  const removeOnExit = () => {
    child?.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', removeOnExit);

  async function start(): Promise<void> {
    const args = ['-D', data, '-p', String(port), '-k', folder, '-c', 'listen_addresses=127.0.0.1', ...DURABILITY_OFF];
    const started = spawn(programs!.postgres, args, { ...user, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (!output.includes('database system is ready to accept connections')) return;
        started.stderr!.off('data', onData);
        started.stderr!.resume();
        resolve();
      };
      started.stderr!.on('data', onData);
      started.stdout!.resume();
      started.once('error', reject);
      started.once('exit', (code) => reject(new Error(`postgres exited with ${code}: ${output.slice(-500)}`)));
    });
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // Immediate shutdown: the postmaster ends its backends and exits without a checkpoint, as in a
    // crash; the next start recovers from the log. (SIGKILL would leave the backends running.)
    running.kill('SIGQUIT');
    await exited;
  }

  async function close(): Promise<void> {
    await stop();
    process.off('exit', removeOnExit);
    rmSync(folder, { recursive: true, force: true });
  }

  await start();
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, start, stop, close };
}
