// `pay-widget check` names the set-up mistake that stops every check, once and at once (issue 27):
// the line it prints for express.json() mounted first, keys the sandbox refuses, a throwing order
// resolver, a back end paying through another gateway (one payment there, never a stream), CORS
// without the header; `--help` exits 0; an answer cannot draw in the terminal or be endless.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { checkCommand } from '../../src/cli/check-command.js';
import { createSandboxGateway } from '../../src/sandbox/index.js';
import { PAGE_ORIGIN, startBackEnd, type Breakage } from './check-backends.js';
import { freePort, loopbackServers } from './loopback.js';

const servers = loopbackServers();
after(() => servers.close());

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const started = performance.now();
  const code = await checkCommand(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n'), ms: performance.now() - started };
}

/** The command against a back end served on `sessionUrl`, waiting up to 120 s as by default. */
function check(sessionUrl: string, gatewayPort: number, more: string[] = []) {
  return run(['--session-url', sessionUrl, '--gateway-port', String(gatewayPort), ...more]);
}

async function checkBroken(breakage: Breakage) {
  const gatewayPort = await freePort();
  const urls = await startBackEnd(servers, `http://127.0.0.1:${gatewayPort}`, breakage);
  return check(urls.sessionUrl, gatewayPort, [
    '--status-url',
    urls.statusUrl,
    '--webhook-url',
    urls.webhookUrl,
    '--origin',
    PAGE_ORIGIN,
  ]);
}

/** The one FAIL line and nothing checked: the setup failure, printed once, within a few seconds (not the 120 s wait). */
function assertOneSetupLine(result: Awaited<ReturnType<typeof run>>, line: string) {
  assert.equal(result.code, 1, result.out);
  const fails = result.out.split('\n').filter((printed) => printed.includes('FAIL'));
  assert.deepEqual(fails, [`FAIL ${line}`, 'pay-widget check: FAIL (0 passed, 1 failed, 0 skipped)']);
  assert.ok(result.ms < 10_000, `it took ${Math.round(result.ms)} ms`);
}

describe('pay-widget check: the mistake that stops every check, in one line', () => {
  it('express.json() mounted before the session handler', async () => {
    assertOneSetupLine(
      await checkBroken('json-parser-first'),
      'the session endpoint answered HTTP 500 config ("Payments are not set up correctly on this site. Please contact the merchant.") before asking the gateway: a body parser read the request first, so mount the handler before body parsers (express.json()); if it is mounted first, its order\'s callbackUrl and redirectUrl must be https',
    );
  });

  it('keys the sandbox refuses: which setting is wrong, once, instead of a failure per check', async () => {
    assertOneSetupLine(
      await checkBroken('wrong-secret-key'),
      "the sandbox refused the back end's keys: PAY_SECRET_KEY is wrong (set PAY_SECRET_KEY=sk_sandbox_secret_0123456789abcdef)".replace(
        /sk_sandbox_secret_\w+/,
        (await import('../../src/sandbox/index.js')).SANDBOX_SECRET_KEY,
      ),
    );
    const publicKey = await checkBroken('wrong-public-key');
    assert.match(
      publicKey.out,
      /^FAIL the sandbox refused the back end's keys: PAY_PUBLIC_KEY is wrong \(set PAY_PUBLIC_KEY=pk_sandbox_\w+\)$/m,
    );
    assert.doesNotMatch(
      publicKey.out + publicKey.err,
      /sk_live|pk_live_mistyped/,
      'the keys the back end sent are never printed',
    );
  });

  it('an order resolver that throws', async () => {
    assertOneSetupLine(
      await checkBroken('throwing-resolver'),
      'the session endpoint answered HTTP 500 internal ("Something went wrong on our side. Please try again.") before asking the gateway: the order resolver (order) threw, or beforeInitiate did; your server\'s onEvent has the error (internal-error, where: "order")',
    );
  });

  it('a back end paying through another gateway: stopped after its first payment there', async () => {
    const elsewhere = createSandboxGateway({});
    let initiations = 0;
    const otherGateway = await servers.listen(async (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      if (incoming.url?.endsWith('/payments/initiates')) initiations += 1;
      const method = incoming.method ?? 'GET';
      const request = new Request(`http://127.0.0.1${incoming.url}`, {
        method,
        headers: incoming.headers as Record<string, string>,
        body: method === 'GET' ? undefined : Buffer.concat(chunks),
      });
      const response = await elsewhere(request);
      outgoing
        .writeHead(response.status, Object.fromEntries(response.headers))
        .end(Buffer.from(await response.arrayBuffer()));
    });
    const urls = await startBackEnd(servers, otherGateway);
    const result = await check(urls.sessionUrl, await freePort());
    elsewhere.close();
    assert.match(
      result.out,
      /^FAIL the back end started payment \S+ with another gateway, not this sandbox; stopped after that one request so that no more start there: restart it with the settings above$/m,
    );
    assert.equal(initiations, 1, 'one payment started elsewhere, not one every 2 s');
    assert.ok(result.ms < 10_000);
  });

  it('CORS without Access-Control-Allow-Origin: "absent", and allowedOrigins named', async () => {
    const result = await checkBroken('no-cors');
    assert.match(
      result.out,
      /^ {7}FAIL the session preflight from https:\/\/shop\.example got HTTP 403 with Access-Control-Allow-Origin absent: list https:\/\/shop\.example in the handlers' allowedOrigins$/m,
    );
  });
});

describe('pay-widget check: the command line and what it prints', () => {
  it('pay-widget --help and pay-widget check --help print the usage on stdout and exit 0', async () => {
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: pay-widget check --session-url URL/);
    assert.match(help.out, /npx --package \.\/pay-widget-0\.1\.0\.tgz pay-widget check/);
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/pay-widget.ts', '--help'], {
      encoding: 'utf8',
    });
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /^Usage: pay-widget check --session-url URL/);
  });

  it('prints a back end’s answer without its control characters: no colours, no line of its own', async () => {
    const forged = '\r\n\u001b[32mok   secrets: nothing leaked\u001b[0m\u009b2K\u202e';
    const sessionUrl = `${await servers.listen((_request, response) => {
      response
        .writeHead(502, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ERROR', error: { code: 'gateway_error', message: forged } }));
    })}/pay/session`;
    const result = await check(sessionUrl, await freePort());
    assert.doesNotMatch(
      result.out,
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/,
      'no control character but the line breaks between lines',
    );
    assert.doesNotMatch(result.out, /^ok/m, 'no line of the answer’s own');
    assert.match(result.out, /\\u\{1b\}\[32mok {3}secrets/, 'shown, escaped');
  });

  it('reads an endless answer only up to its limit', async () => {
    const sessionUrl = `${await servers.listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const write = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', write);
      };
      write();
    })}/pay/session`;
    const result = await check(sessionUrl, await freePort(), ['--wait', '0']);
    assert.equal(result.code, 1);
    assert.match(
      result.out,
      /^FAIL a session request to \S+ got HTTP 200 with an answer over 1 MB \(read no further\) and never reached the sandbox/m,
    );
  });
});
