// `pay-widget check` against examples/php/, the back end written from the README's contract alone,
// served by PHP's built-in server with four workers (so concurrent requests are concurrent).
// Skipped, with the reason, where there is no php (`node scripts/ensure-php.mjs` installs it).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { findPhp, missingPhpMessage } from '../../scripts/ensure-php.mjs';
import { runCheck } from '../../src/check/runner.js';
import { SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import { freePort } from './loopback.js';

const php = findPhp();
const exampleDir = fileURLToPath(new URL('../../examples/php/', import.meta.url));
const ORIGIN = 'https://shop.example';

async function startPhp(gatewayPort: number) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'pay-widget-php-'));
  const env = {
    PATH: process.env.PATH,
    PHP_CLI_SERVER_WORKERS: '4',
    PAY_BASE_URL: `http://127.0.0.1:${gatewayPort}`,
    PAY_PUBLIC_KEY: SANDBOX_PUBLIC_KEY,
    PAY_SECRET_KEY: SANDBOX_SECRET_KEY,
    PAY_ALLOWED_ORIGINS: ORIGIN,
    PAY_DATA_DIR: dataDir,
  };
  // Its own process group: the workers PHP forks end with it.
  const child = spawn(php!, ['-S', `127.0.0.1:${port}`, 'index.php'], {
    cwd: exampleDir,
    env,
    detached: true,
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 100 && child.exitCode === null; tries += 1) {
    if (
      await fetch(origin).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin,
    async close() {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('pay-widget check against examples/php', { skip: php ? false : missingPhpMessage() }, () => {
  const started: { close(): Promise<void> }[] = [];
  after(() => Promise.all(started.map((server) => server.close())));

  it('passes every check', async () => {
    const gatewayPort = await freePort();
    const server = await startPhp(gatewayPort);
    started.push(server);
    const { results } = await runCheck({
      sessionUrl: `${server.origin}/pay/session`,
      statusUrl: `${server.origin}/pay/status`,
      webhookUrl: `${server.origin}/pay/webhook`,
      origin: ORIGIN,
      gatewayPort,
      waitMs: 10_000,
    });
    assert.deepEqual(
      results.filter((result) => result.status !== 'ok'),
      [],
    );
    assert.equal(results.length, 16);
  });
});
