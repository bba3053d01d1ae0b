/**
 * What a merchant's customers download: gzip at level 9 and brotli at quality 11 (node:zlib) of the
 * script tag, of the npm entry (with the local chunks it imports, minified by Oxc as a merchant's
 * bundler would; Lit external), and, for scale, of two payment libraries from the registry, fetched
 * once with `npm pack` into bench/.cache/npm. Without the registry they are skipped, and said so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { minifySync } from 'vite';
import { fileBesideScript } from '../../src/element/loading/later-files.js';
import { cacheDir, root } from './paths.js';

const AFTER_SUBMIT_FILE = fileBesideScript('after-submit');

export type Size = { raw: number; min: number; gzip: number; brotli: number; files: string[] };

const gzip = (code: string) => gzipSync(code, { level: 9 }).length;
const brotli = (code: string) =>
  brotliCompressSync(code, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(code),
    },
  }).length;

function minify(file: string, code: string, module: boolean): string {
  const result = minifySync(file, code, {
    module,
    compress: { target: 'es2022' },
    mangle: { toplevel: module },
    codegen: { removeWhitespace: true },
  });
  if (result.errors.length > 0) throw new Error(`minifying ${file}: ${result.errors[0]?.message}`);
  return result.code;
}

/** Files served separately: each compressed on its own, summed. `minified` files are measured as they are. */
export function sizeOfFiles(files: string[], options: { minified: boolean; module: boolean }): Size {
  const size: Size = { raw: 0, min: 0, gzip: 0, brotli: 0, files: files.map((file) => file.replace(`${root}/`, '')) };
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    const min = options.minified || file.endsWith('.css') ? code : minify(file, code, options.module);
    size.raw += Buffer.byteLength(code);
    size.min += Buffer.byteLength(min);
    size.gzip += gzip(min);
    size.brotli += brotli(min);
  }
  return size;
}

export function sizeOfCode(code: string): Size {
  const bytes = Buffer.byteLength(code);
  return { raw: bytes, min: bytes, gzip: gzip(code), brotli: brotli(code), files: [] };
}

/**
 * An ES module in dist/ and every local chunk it imports statically: what a page loads for it. Chunks
 * behind a dynamic `import()` (the locales other than English) load only when asked for.
 */
function withLocalChunks(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      visit(resolve(dirname(file), match[1]!));
    }
  };
  visit(entry);
  return [...seen];
}

/** The script tag's first file, its second (what runs after a submit), and the npm entries. */
export function ownSizes(): { scriptTag: Size; afterSubmit: Size; npmEntries: Record<string, Size> } {
  const dist = join(root, 'dist');
  const npmEntries: Record<string, Size> = {};
  for (const entry of ['index', 'server', 'sandbox', 'react']) {
    const file = join(dist, `${entry}.js`);
    if (existsSync(file)) npmEntries[entry] = sizeOfFiles(withLocalChunks(file), { minified: false, module: true });
  }
  return {
    scriptTag: sizeOfFiles([join(dist, 'pay-widget.iife.js')], { minified: true, module: false }),
    afterSubmit: sizeOfFiles([join(dist, AFTER_SUBMIT_FILE)], { minified: true, module: true }),
    npmEntries,
  };
}

/** Registry packages measured for scale, and the files of each that a page would load. */
const OTHERS = [
  {
    name: '@paystack/inline-js',
    files: ['dist/inline.js'],
    what: 'dist/inline.js, its script-tag build',
  },
  {
    name: '@adyen/adyen-web',
    files: ['dist/cjs/index.cjs', 'dist/es/adyen.css'],
    what: 'dist/cjs/index.cjs (the whole library in one file; a bundler keeps less of its ES build) + adyen.css',
  },
];

export type OtherSize = { name: string; version?: string; what: string; size?: Size; skipped?: string };

/** `npm pack` once into bench/.cache/npm and unpack; later runs reuse the unpacked copy. */
function packed(name: string): { dir: string; version: string } | { skipped: string } {
  const npmDir = join(cacheDir, 'npm');
  mkdirSync(npmDir, { recursive: true });
  const prefix = name.replace(/^@/, '').replace('/', '-') + '-';
  const find = () => readdirSync(npmDir).find((file) => file.startsWith(prefix) && file.endsWith('.tgz'));
  let tarball = find();
  if (!tarball) {
    const result = spawnSync('npm', ['pack', name, '--pack-destination', npmDir, '--loglevel=error'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    tarball = find();
    if (result.status !== 0 || !tarball) {
      const lines = (result.stderr ?? '').split('\n').filter((line) => line.startsWith('npm error'));
      const why =
        lines.find((line) => / code /.test(line)) ?? lines[0] ?? result.error?.message ?? `exit ${result.status}`;
      return { skipped: `npm pack ${name} failed (registry not reachable?): ${why}` };
    }
  }
  const dir = join(npmDir, tarball.replace(/\.tgz$/, ''));
  if (!existsSync(join(dir, 'package', 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    const untar = spawnSync('tar', ['-xzf', join(npmDir, tarball), '-C', dir], { encoding: 'utf8' });
    if (untar.status !== 0) return { skipped: `could not unpack ${tarball}: ${untar.stderr.trim()}` };
  }
  const version = JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')).version as string;
  return { dir: join(dir, 'package'), version };
}

export function otherSizes(): OtherSize[] {
  return OTHERS.map(({ name, files, what }) => {
    const pack = packed(name);
    if ('skipped' in pack) return { name, what, skipped: pack.skipped };
    const paths = files.map((file) => join(pack.dir, file));
    const missing = paths.filter((path) => !existsSync(path));
    if (missing.length > 0)
      return { name, version: pack.version, what, skipped: `not in ${pack.version}: ${files.join(', ')}` };
    return { name, version: pack.version, what, size: sizeOfFiles(paths, { minified: false, module: false }) };
  });
}
