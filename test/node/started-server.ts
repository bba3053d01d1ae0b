// A merchant's server started as its users start it (`npm start`, `npm run start:deno`, …) in its
// own process group on 127.0.0.1, with what it prints collected for the test to wait on and read.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { freePort } from './loopback.js';

/** Only a failure waits this long: generous for a loaded 2-core machine. */
const WAIT_MS = 30_000;

export type StartedServer = {
  origin: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves once the output matches `pattern`; fails after a while, or when it exited, with what it printed. */
  printed(pattern: RegExp, waitMs?: number): Promise<RegExpMatchArray>;
  close(): Promise<void>;
};

export type StartOptions = {
  /** More environment variables for the server (HOST too: 127.0.0.1 unless given). */
  env?: Record<string, string>;
  /** How long to wait for `ready` (a script that builds first takes longer); WAIT_MS by default. */
  readyWaitMs?: number;
};

/** Runs `npm run <script>` in `dir` with PORT and HOST set, and waits for it to print `ready`. */
export async function startServer(
  dir: string,
  script: string,
  ready: RegExp,
  options: StartOptions = {},
): Promise<StartedServer> {
  const port = await freePort();
  const { PATH, HOME } = process.env;
  const env = { PATH, HOME, HOST: '127.0.0.1', ...options.env, PORT: String(port) };
  const child = spawn('npm', ['run', '--silent', script], { cwd: dir, env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const server: StartedServer = {
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    async printed(pattern, waitMs = WAIT_MS) {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const match = output.match(pattern);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null)
          assert.fail(`${script} never printed ${pattern}; it printed:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      if (child.exitCode !== null) return;
      process.kill(-child.pid!, 'SIGTERM'); // npm and the runtime it started
      await exited;
    },
  };
  try {
    await server.printed(ready, options.readyWaitMs);
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}

/** Runs `npm run <script>` in `dir` with `env`, expecting it to stop by itself: its exit code and what it printed. */
export async function runToExit(
  dir: string,
  script: string,
  env: Record<string, string> = {},
  waitMs = WAIT_MS,
): Promise<{ code: number | null; output: string }> {
  const { PATH, HOME } = process.env;
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: dir,
    env: { PATH, HOME, HOST: '127.0.0.1', PORT: String(await freePort()), ...env },
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGTERM'), waitMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, output };
}
