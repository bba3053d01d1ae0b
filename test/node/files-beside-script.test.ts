/**
 * The script tag's files beside it, as the build wrote them (dist/, which `npm run build` writes):
 * each exports what the first file asks of it, and none imitates Lit. The first file loads each one
 * with src/element/loading/load.ts and reads it as its entry's type (src/element/loading/later-files.ts),
 * so the type-check holds the first file to the entry's exports; this holds the built file to them.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fileBesideScript, type LaterFile } from '../../src/element/loading/later-files.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist');
const entries = join(root, 'src/element/loading/entries');
const names = readdirSync(entries).map((file) => file.replace(/\.ts$/, '') as LaterFile);

/** The names an ES module exports in `export { a, b as c }` clauses: an entry's, or a minified file's. */
const exportsOf = (code: string) =>
  [...code.matchAll(/\bexport\s*\{([^}]*)\}/g)].flatMap(([, list]) =>
    list!.split(',').map((item) =>
      item
        .trim()
        .split(/\s+as\s+/)
        .pop()!,
    ),
  );
/** `import … from`, `import '…'` or `import(…)`. */
const IMPORTS = /\bimport\s*[\s{*"'`(]|\bfrom\s*["'`]/;

/** Members named `_$…`: Lit's contract between its own copies, not its public API. */
const LIT_PRIVATE = /_\$[A-Za-z]/;

describe('the files beside the script tag', () => {
  if (!existsSync(join(dist, 'pay-widget.iife.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  it('are one for each entry in src/element/loading/entries', () => {
    assert.deepEqual(names.sort(), ['after-submit', 'fr', 'ha', 'ig', 'pcm', 'qr', 'resume', 'transfer', 'yo']);
  });

  for (const name of names) {
    const file = fileBesideScript(name);
    it(`${file} exports what its entry does, and takes what the first file shares (receiveShared)`, () => {
      const asked = [...exportsOf(readFileSync(join(entries, `${name}.ts`), 'utf8')), 'receiveShared'].sort();
      const built = readFileSync(join(dist, file), 'utf8');
      assert.deepEqual(exportsOf(built).sort(), asked, `${file}'s exports`);
      assert.doesNotMatch(built, IMPORTS, `${file} imports nothing: the first file's loader brings every file`);
    });
  }

  it('use Lit through its public API only: no `_$` member outside Lit’s own code', () => {
    for (const name of names) {
      const file = fileBesideScript(name);
      assert.doesNotMatch(readFileSync(join(dist, file), 'utf8'), LIT_PRIVATE, file);
    }
    const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    for (const file of sources) assert.doesNotMatch(readFileSync(join(root, 'src', file), 'utf8'), LIT_PRIVATE, file);
  });
});
