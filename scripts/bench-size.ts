/**
 * Size of what merchants download, after `npm run build`:
 *
 *   node --import tsx scripts/bench-size.ts
 *
 * - the script-tag build, dist/pay-widget.iife.js (Lit inside; the browser code does not use zod), against its budget;
 * - the npm entries, each with the local chunks it imports (lit, zod, react are external there and
 *   not counted). They ship unminified, so "min" is what a merchant's bundler would make of them
 *   (Oxc, the minifier of the script-tag build);
 * - for scale, Lit + a small zod/mini object schema alone, built the way the script tag is.
 *
 * gzip at level 9 and brotli at maximum quality (node:zlib). Over budget is printed, not fatal:
 * the exit code is 0 unless the build output is missing.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build, minifySync, type Rolldown } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const BUDGET_GZIP = 16 * 1024; // the script-tag build, Lit included (issue 2)

type Row = { name: string; files: number; raw: number; min: number; gzip: number; brotli: number; note?: string };

const gzip = (code: string) => gzipSync(code, { level: 9 }).length;
const brotli = (code: string) =>
  brotliCompressSync(code, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(code),
    },
  }).length;
const bytes = (code: string) => Buffer.byteLength(code);

function minifyModule(file: string, code: string): string {
  const result = minifySync(file, code, {
    module: true,
    compress: { target: 'es2022' },
    mangle: { toplevel: true },
    codegen: { removeWhitespace: true },
  });
  if (result.errors.length > 0) throw new Error(`minifying ${file}: ${result.errors[0]?.message}`);
  return result.code;
}

/** An ES module in dist/ and every local chunk it imports, statically or dynamically. */
function withLocalChunks(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      visit(resolve(dirname(file), match[1]!));
    }
  };
  visit(entry);
  return [...seen];
}

/** Sizes of files served separately: per-file compression, summed. */
function measure(name: string, files: string[], alreadyMinified: boolean): Row {
  let raw = 0;
  let min = 0;
  let gz = 0;
  let br = 0;
  for (const file of files) {
    const code = readFileSync(file, 'utf8');
    const minified = alreadyMinified ? code : minifyModule(file, code);
    raw += bytes(code);
    min += bytes(minified);
    gz += gzip(minified);
    br += brotli(minified);
  }
  return { name, files: files.length, raw, min, gzip: gz, brotli: br };
}

/** Lit + a zod/mini object schema and nothing else, as one minified IIFE like the script tag. */
async function baseline(): Promise<Row | undefined> {
  const dir = join(root, 'node_modules', '.cache', 'pay-widget-bench');
  const entry = join(dir, 'baseline.js');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    entry,
    `import { LitElement, html, css } from 'lit';
import * as z from 'zod/mini';
const schema = z.object({
  fullName: z.string().check(z.minLength(2)),
  email: z.string().check(z.email()),
  paymentType: z.enum(['USSD', 'TRANSFER']),
});
class Baseline extends LitElement {
  static styles = css\`:host { display: block }\`;
  static properties = { value: {} };
  render() { return html\`<p>\${z.safeParse(schema, this.value).success}</p>\`; }
}
customElements.define('bench-baseline', Baseline);
`,
  );
  try {
    const result = await build({
      configFile: false,
      root,
      logLevel: 'silent',
      publicDir: false,
      resolve: { conditions: ['browser', 'module', 'production'] },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        write: false,
        target: 'es2022',
        minify: 'oxc',
        lib: { entry, formats: ['iife'], name: 'Baseline', fileName: () => 'baseline.js' },
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
    if (!chunk || chunk.type !== 'chunk') return undefined;
    const code = chunk.code;
    return {
      name: 'for scale: Lit + zod/mini object schema',
      files: 1,
      raw: bytes(code),
      min: bytes(code),
      gzip: gzip(code),
      brotli: brotli(code),
    };
  } catch (error) {
    console.warn(`(baseline not computed: ${(error as Error).message.split('\n')[0]})`);
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function kib(n: number): string {
  return `${(n / 1024).toFixed(2)} KiB`;
}

function printTable(rows: Row[]) {
  const head = ['build', 'files', 'raw', 'min', 'gzip -9', 'brotli -11', ''];
  const body = rows.map((r) => [
    r.name,
    String(r.files),
    r.raw.toLocaleString('en'),
    r.min.toLocaleString('en'),
    `${r.gzip.toLocaleString('en')} (${kib(r.gzip)})`,
    `${r.brotli.toLocaleString('en')} (${kib(r.brotli)})`,
    r.note ?? '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}

const iife = join(dist, 'pay-widget.iife.js');
const npmEntries: [string, string][] = [
  ['npm: pay-widget (index.js + chunks)', 'index.js'],
  ['npm: pay-widget/server (server.js + chunks)', 'server.js'],
  ['npm: pay-widget/sandbox (sandbox.js + chunks)', 'sandbox.js'],
  ['npm: pay-widget/react (react.js + chunks)', 'react.js'],
];

const missing = [iife, join(dist, 'index.js'), join(dist, 'server.js')].filter((f) => !existsSync(f));
if (missing.length > 0) {
  console.error(`bench-size: missing ${missing.map((f) => relative(root, f)).join(', ')}; run \`npm run build\` first.`);
  process.exit(1);
}

const rows: Row[] = [];
const scriptTag = measure('script tag: dist/pay-widget.iife.js', [iife], true);
const over = scriptTag.gzip > BUDGET_GZIP;
scriptTag.note = over
  ? `OVER BUDGET by ${(scriptTag.gzip - BUDGET_GZIP).toLocaleString('en')} B`
  : `within budget (${kib(BUDGET_GZIP - scriptTag.gzip)} to spare)`;
rows.push(scriptTag);
for (const [name, file] of npmEntries) {
  const path = join(dist, file);
  if (existsSync(path)) rows.push(measure(name, withLocalChunks(path), false));
}
const base = await baseline();
if (base) rows.push(base);

console.log(`\nBundle sizes in bytes (budget for the script tag: ${BUDGET_GZIP.toLocaleString('en')} B = 16 KiB gzip)\n`);
printTable(rows);
console.log(
  `\nScript tag: ${kib(scriptTag.gzip)} gzip, ${kib(scriptTag.brotli)} brotli: ` +
    (over ? `OVER BUDGET (16 KiB gzip).` : `within the 16 KiB gzip budget.`),
);
if (base) {
  console.log(`For scale: Lit + a small zod/mini object schema alone, built the same way: ${kib(base.gzip)} gzip.`);
}
console.log('npm rows: unminified as shipped ("raw"); "min", gzip and brotli are after Oxc minification; lit, zod and react are external and not counted.\n');
