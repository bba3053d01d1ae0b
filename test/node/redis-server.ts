import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './loopback.js';
import { findRedisServer, missingRedisMessage } from '../../scripts/ensure-redis.mjs';

/**
 * A throw-away redis-server on a free 127.0.0.1 port, persistence off, for the tests and the bench.
 * `stop()` and `start()` again (same port) rehearse Redis going away and coming back.
 */
export type RedisServer = { url: string; port: number; start(): Promise<void>; stop(): Promise<void> };

export async function startRedisServer(): Promise<RedisServer> {
  const executable = findRedisServer();
  if (!executable) throw new Error(missingRedisMessage());
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const started = spawn(
      executable!,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
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

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop };
}

