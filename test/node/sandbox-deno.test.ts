// The sandbox under Deno's narrow permissions (issue 27): `deno run --allow-env=PORT` makes reading
// NODE_ENV throw NotCapable, which crashed createSandboxGateway at start. Now it is read without
// crashing and taken as production: one line says why it refuses and what to allow, and
// allowInProduction: true starts it without reading NODE_ENV at all. Deno from the npm registry
// (the `deno` package, as recipes.test.ts installs it); skipped with the reason where it cannot run.
// Run after `npm run build` (it imports dist/sandbox.js).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { repoRoot } from './consumer-app.js';

const run = promisify(execFile);
let dir: string;
let deno: string | undefined;
let unavailable = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pay-widget-deno-'));
  await writeFile(join(dir, 'package.json'), '{"private":true}');
  try {
    await run('npm', ['install', 'deno@^2.5.0', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: dir,
    });
    deno = join(dir, 'node_modules', '.bin', 'deno');
    await run(deno, ['--version']);
  } catch (error) {
    deno = undefined;
    unavailable = `deno from npm does not run here (${(error as Error).message.split('\n')[0]})`;
  }
});

after(() => rm(dir, { recursive: true, force: true }));

/** Runs `code` (an ES module importing the built sandbox) with Deno's narrow `--allow-env=PORT`. */
async function narrowDeno(code: string): Promise<{ code: number; output: string }> {
  const file = join(dir, `run-${Math.random().toString(36).slice(2)}.mjs`);
  const sandbox = pathToFileURL(join(repoRoot, 'dist', 'sandbox.js')).href;
  await writeFile(file, code.replace('SANDBOX', sandbox));
  return run(deno!, ['run', '--allow-env=PORT', `--allow-read=${repoRoot}`, file], { cwd: dir }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
}

describe('the sandbox under deno run --allow-env=PORT', () => {
  it('refuses to start in one line saying NODE_ENV could not be read, never NotCapable', async (t) => {
    if (!deno) return t.skip(unavailable);
    const { code, output } = await narrowDeno(`import { createSandboxGateway } from 'SANDBOX';
try { createSandboxGateway(); console.log('started'); } catch (error) { console.log(error.name + ': ' + error.message); }`);
    assert.equal(code, 0, output);
    assert.equal(
      output.trim(),
      'TypeError: createSandboxGateway: could not read NODE_ENV (NotCapable: e.g. Deno without --allow-env=NODE_ENV), so it is taken as production: refusing to start, as the sandbox moves no money. Allow reading NODE_ENV, or pass allowInProduction: true for a public demo.',
    );
  });

  it('starts with allowInProduction: true, and answers', async (t) => {
    if (!deno) return t.skip(unavailable);
    const { code, output } = await narrowDeno(`import { createSandboxGateway } from 'SANDBOX';
const sandbox = createSandboxGateway({ allowInProduction: true });
const answer = await sandbox(new Request('https://sandbox.invalid/api/v2/payments/query/pw-none'));
console.log('answered', answer.status);
sandbox.close();`);
    assert.equal(code, 0, output);
    assert.equal(output.trim(), 'answered 403');
  });
});
