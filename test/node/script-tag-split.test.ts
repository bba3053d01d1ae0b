/**
 * What the builds made of the split (issue 18): the script tag's first file draws and checks the
 * form, and what runs after a submit is its second file, beside it; in the npm build the same code
 * is a chunk reached only through `import()`. Reads dist/, which `npm run build` writes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fileBesideScript } from '../../src/element/loading/later-files.js';

const dist = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'dist');
const read = (file: string) => readFileSync(join(dist, file), 'utf8');
const AFTER_SUBMIT_FILE = fileBesideScript('after-submit');
const TRANSFER_SCREEN_FILE = fileBesideScript('transfer');
const QR_CODE_FILE = fileBesideScript('qr');
/** `import … from`, `import '…'` or `import(…)`: the files beside the script import nothing (the first file's loader brings each). */
const IMPORTS = /\bimport\s*[\s{*"'`(]|\bfrom\s*["'`]/;

/** Strings only the client (the session request) and the result screens have. */
const AFTER_SUBMIT_MARKS = ['Idempotency-Key', 'ussdDailCode', 'tel:'];

describe('the script tag in two files', () => {
  if (!existsSync(join(dist, 'pay-widget.iife.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  it('keeps the client and the result screens out of the first file', () => {
    const first = read('pay-widget.iife.js');
    for (const mark of AFTER_SUBMIT_MARKS) assert.ok(!first.includes(mark), `${mark} is in dist/pay-widget.iife.js`);
    assert.ok(first.includes('pay-widget.${'), 'the first file names the files beside it');
  });

  it('writes them beside it as one ES module that imports nothing and carries no second Lit', () => {
    const second = read(AFTER_SUBMIT_FILE);
    for (const mark of AFTER_SUBMIT_MARKS)
      assert.ok(second.includes(mark), `${mark} is missing from ${AFTER_SUBMIT_FILE}`);
    assert.doesNotMatch(second, IMPORTS);
    assert.match(second, /\bexport\s*\{/);
    // Lit's renderer and element: the first file's alone render the second file's templates.
    for (const lit of ['litHtmlVersions', 'litElementVersions', 'attachShadow'])
      assert.ok(!second.includes(lit), `${lit} in the second file`);
  });

  it('writes the transfer screen beside them as a third ES module, which imports nothing', () => {
    const third = read(TRANSFER_SCREEN_FILE);
    assert.ok(third.includes('Transfer to this account'), 'its English strings are in it');
    for (const file of ['pay-widget.iife.js', AFTER_SUBMIT_FILE]) {
      assert.ok(!read(file).includes('Transfer to this account'), `the transfer screen's strings are in ${file}`);
    }
    assert.doesNotMatch(third, IMPORTS);
    for (const lit of ['litHtmlVersions', 'litElementVersions'])
      assert.ok(!third.includes(lit), `${lit} in the third file`);
  });

  it("writes the QR code's encoder beside them, in neither of the two", () => {
    const qr = read(QR_CODE_FILE);
    assert.match(qr, /\bexport\s*\{[^}]*\bqrCode\b/);
    assert.doesNotMatch(qr, IMPORTS, 'it imports nothing');
    for (const file of ['pay-widget.iife.js', AFTER_SUBMIT_FILE])
      assert.ok(!read(file).includes('lean-qr error'), `the encoder is in ${file}`);
  });
});

describe('the npm build’s split', () => {
  it('reaches what runs after a submit only through import()', () => {
    const define = read('define.js');
    const [, chunk] = define.match(/\bimport\(\s*["'](\.\/chunks\/after-submit-[\w-]+\.js)["']\s*\)/) ?? [];
    assert.ok(chunk, 'define.js imports the after-submit chunk on demand');
    for (const [, file] of define.matchAll(/\bfrom\s*["'](\.\/[^"']+)["']/g)) {
      assert.notEqual(file, chunk, 'and never statically');
    }
    assert.ok(!define.includes('Idempotency-Key'), 'the client is not in define.js');
    // The client may sit in a chunk the after-submit chunk shares with the resume chunk (both read a session answer).
    const code = read(chunk.slice(2));
    const shared = [...code.matchAll(/\bfrom\s*["']\.\/([^"']+)["']/g)].map(([, file]) => read(`chunks/${file}`));
    assert.ok(
      [code, ...shared].some((text) => text.includes('Idempotency-Key')),
      'the chunk holds the client',
    );
  });
});
