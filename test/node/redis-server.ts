import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './loopback.js';
import { findRedisServer, missingRedisMessage } from '../../scripts/ensure-redis.mjs';

/**
 * A throw-away redis-server on a free 127.0.0.1 port, for the tests and the bench: persistence off,
 * or with `persistent`, an append-only file written on every command (as a ledger in Redis needs)
 * in a temporary folder. `stop()` (SIGKILL) and `start()` again (same port) rehearse Redis going
 * away and coming back; `remove()` also deletes the folder.
 */
export type RedisServer = {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
};

export async function startRedisServer(options: { persistent?: boolean } = {}): Promise<RedisServer> {
  const executable = findRedisServer();
  if (!executable) throw new Error(missingRedisMessage());
  const port = await freePort();
  const folder = options.persistent ? await mkdtemp(join(tmpdir(), 'pay-widget-redis-')) : undefined;
  const durability = folder
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', folder]
    : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const started = spawn(
      executable!,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...durability, '--protected-mode', 'yes'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          started.stdout!.off('data', onData);
          started.stdout!.resume();
          resolve();
        }
      };
      started.stdout!.on('data', onData);
      started.stderr!.resume();
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`)));
    });
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }

  async function remove(): Promise<void> {
    await stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  }

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop, remove };
}
