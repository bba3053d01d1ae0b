// What `npm publish` would send, checked without publishing: npm corrects nothing in package.json
// (npm 11 drops a `bin` written `./dist/…`, leaving `npx pay-widget check` without its command)
// and the packed package carries the command it names. Run after `npm run build`.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from './consumer-app.js';

const run = promisify(execFile);

describe('npm publish --dry-run', () => {
  it('corrects nothing in package.json and packs every file "bin" names', async () => {
    const { stdout, stderr } = await run('npm', ['publish', '--dry-run', '--ignore-scripts', '--json'], {
      cwd: repoRoot,
      maxBuffer: 16 << 20,
    });
    const corrections = stderr.split('\n').filter((line) => /warn publish/.test(line) && !/logged in/.test(line));
    assert.deepEqual(corrections, [], 'npm corrected package.json');
    const { files } = (JSON.parse(stdout) as Record<string, { files: { path: string }[] }>)['pay-widget']!;
    const packed = new Set(files.map((file) => file.path));
    const { bin } = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { bin: Record<string, string> };
    for (const [name, path] of Object.entries(bin)) assert.ok(packed.has(path), `bin ${name} → ${path} is not packed`);
  });

  it('packs every file "exports" names (pay-widget/server/sqlite and its sqlite.sql among them)', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], {
      cwd: repoRoot,
      maxBuffer: 16 << 20,
    });
    const packed = new Set((JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path));
    const { exports } = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as {
      exports: Record<string, string | Record<string, string>>;
    };
    const named = Object.entries(exports).flatMap(([entry, target]) =>
      (typeof target === 'string' ? [target] : Object.values(target)).map(
        (path) => [entry, path.replace(/^\.\//, '')] as const,
      ),
    );
    assert.ok(
      named.some(([entry]) => entry === './server/sqlite') && named.some(([entry]) => entry === './server/sqlite.sql'),
    );
    assert.deepEqual(
      named.filter(([, path]) => !packed.has(path)),
      [],
      'named in exports but not packed',
    );
  });
});
