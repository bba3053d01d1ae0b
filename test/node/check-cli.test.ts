import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { checkCommand } from '../../src/cli/check-command.js';
import { PAGE_ORIGIN, startBackEnd } from './check-backends.js';
import { freePort, loopbackServers } from './loopback.js';

const servers = loopbackServers();
after(() => servers.close());

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await checkCommand(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('pay-widget check (the command)', () => {
  it('refuses a command line it cannot use with exit code 2, the reason and the usage', async () => {
    for (const [args, reason] of [
      [[], /--session-url is required/],
      [['--session-url', 'shop.example/pay'], /--session-url must be an http\(s\) URL/],
      [
        ['--session-url', 'http://127.0.0.1/pay', '--origin', 'https://shop.example/checkout'],
        /--origin must be an origin.*did you mean https:\/\/shop\.example\?/,
      ],
      [['--session-url', 'http://127.0.0.1/pay', '--wait', 'soon'], /--wait must be a whole number/],
      [['--session-url', 'http://127.0.0.1/pay', '--sesion-url', 'x'], /Unknown option '--sesion-url'/],
    ] as const) {
      const result = await run([...args]);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.err, reason);
      assert.match(result.err, /Usage: pay-widget check --session-url URL/);
    }
  });

  it('prints the three settings, then each check and a summary; --json writes the results on stdout; exit code 0', async () => {
    const gatewayPort = await freePort();
    const urls = await startBackEnd(servers, `http://127.0.0.1:${gatewayPort}`);
    const args = [
      '--session-url',
      urls.sessionUrl,
      '--status-url',
      urls.statusUrl,
      '--webhook-url',
      urls.webhookUrl,
      '--origin',
      PAGE_ORIGIN,
    ];
    const result = await run([...args, '--gateway-port', String(gatewayPort), '--json']);
    assert.equal(result.code, 0, result.err);
    assert.match(
      result.err,
      new RegExp(
        `PAY_BASE_URL=http://127\\.0\\.0\\.1:${gatewayPort}\\n  PAY_PUBLIC_KEY=pk_sandbox_\\w+\\n  PAY_SECRET_KEY=sk_sandbox_secret_\\w+`,
      ),
    );
    assert.match(result.err, /^ok {3}session-concurrent: /m);
    assert.match(result.err, /pay-widget check: ok \(16 passed, 0 failed, 0 skipped\)$/);
    const report = JSON.parse(result.out) as { ok: boolean; results: { name: string; status: string }[] };
    assert.equal(report.ok, true);
    assert.equal(report.results.length, 16);
  });

  it('exits 1 with what to fix when the back end never reaches the sandbox', async () => {
    const port = await freePort();
    const result = await run(['--session-url', `http://127.0.0.1:${port}/pay/session`, '--wait', '0']);
    assert.equal(result.code, 1);
    assert.match(
      result.out,
      /FAIL a session request to http:\/\/127\.0\.0\.1:\d+\/pay\/session got no answer \(ECONNREFUSED\) and never reached the sandbox: start the back end with the settings above/,
    );
  });
});
