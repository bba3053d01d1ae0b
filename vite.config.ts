/**
 * Vite 8 (Rolldown + Oxc) config for the library builds and the demo dev server.
 *
 *   vite build                     npm entries, ES modules, into dist/ (empties dist/ first)
 *   vite build --mode script-tag   dist/pay-widget.iife.js: one self-contained classic <script>
 *                                  (Lit bundled in, minified), added beside them, with the files it
 *                                  loads from beside itself (dist/pay-widget.<name>.js, one for each
 *                                  entry in src/element/loading/entries/: after-submit, transfer, qr,
 *                                  resume and each locale)
 *   vite / createServer()          serves demo/ (the demo's own wiring lives in scripts/start.mjs;
 *                                  an inline config passed to createServer() is merged over this)
 *
 * `npm run build` runs both builds, then `tsc -p tsconfig.build.json` for dist/types.
 *
 * TypeScript is compiled by Oxc, which reads tsconfig.json: `experimentalDecorators` and
 * `useDefineForClassFields: false` apply (Lit's legacy decorators), as in tsc and the test runner.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, defineConfig, type InlineConfig, type Plugin, type ResolvedConfig, type UserConfig } from 'vite';
import { fileBesideScript, type LaterFile } from './src/element/loading/later-files.js';
import { POSTGRES_SCHEMA_SQL } from './src/server/stores/postgres/schema.js';
import { SQLITE_SCHEMA_SQL } from './src/server/stores/sqlite/schema.js';

const pkgVersion: string = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')).version;

/** The npm entries: output name (dist/<name>.js) → source. package.json "exports" names these files. */
export const npmEntries = {
  index: 'src/index.ts',
  define: 'src/define.ts',
  server: 'src/server/index.ts',
  'server-node': 'src/server/node.ts',
  'server-redis': 'src/server/stores/redis/index.ts',
  'server-postgres': 'src/server/stores/postgres/index.ts',
  'server-sqlite': 'src/server/stores/sqlite/index.ts',
  sandbox: 'src/sandbox/index.ts',
  react: 'src/react.ts',
} as const;

/** Left to the consumer's bundler in the npm build (they are dependencies / peer code). */
export const npmExternal: (string | RegExp)[] = [
  /^lit(\/|$)/,
  /^lit-(html|element)(\/|$)/,
  /^@lit\//,
  /^zod(\/|$)/,
  /^lean-qr(\/|$)/,
  /^react(\/|$)/,
  /^node:/,
  // The SQLite driver, an optional peer dependency: loaded by pay-widget/server/sqlite when given a path.
  /^libsql(\/|$)/,
  // pay-widget/server/node's adapter, a dependency.
  /^@hono\/node-server(\/|$)/,
];

/**
 * package.json "sideEffects" lists only dist/ files, and Vite applies it to src/ too, so
 * `import './define.js'` (the module that registers <pay-widget>) would be dropped from the
 * script-tag build as an unused, side-effect-free import. This marks our own modules as having side
 * effects (the resolver's package.json answer wins over `treeshake.moduleSideEffects`, so it is done
 * in `transform`). Dependencies keep what their package.json says.
 */
const srcDir = fileURLToPath(new URL('./src/', import.meta.url));
const ownModulesHaveSideEffects: Plugin = {
  name: 'pay-widget:own-modules-have-side-effects',
  transform(_code, id) {
    return id.startsWith(srcDir) ? { moduleSideEffects: true } : null;
  },
};

/**
 * The PostgreSQL and SQLite ledgers' DDL beside the modules (`pay-widget/server/postgres.sql`,
 * `pay-widget/server/sqlite.sql`), for merchants who run their own migrations: written from the
 * one definition of the tables, src/server/stores/{postgres,sqlite}/schema.ts, which the stores run.
 */
const shipLedgerSql: Plugin = {
  name: 'pay-widget:ship-ledger-sql',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'postgres.sql', source: POSTGRES_SCHEMA_SQL });
    this.emitFile({ type: 'asset', fileName: 'sqlite.sql', source: SQLITE_SCHEMA_SQL });
  },
};

/**
 * Script-tag build only: minifies the markup and CSS inside our own html`` / css`` literals
 * (minify-literals 1: html-minifier-terser + clean-css). Conservative settings: whitespace is
 * collapsed to one space, never removed between inline content; entities stay encoded (Lit parses
 * the template as HTML); empty attributes such as alt="" stay.
 */
function minifyTemplateLiterals(): Plugin {
  let load: Promise<typeof import('minify-literals')> | undefined;
  return {
    name: 'pay-widget:minify-template-literals',
    apply: 'build',
    async transform(code, id) {
      if (!id.startsWith(srcDir) || !/\.[cm]?[jt]s$/.test(id) || !/\b(html|css|svg)`/.test(code)) return null;
      load ??= import('minify-literals');
      const { minifyHTMLLiterals } = await load;
      const result = await minifyHTMLLiterals(code, {
        fileName: id,
        minifyOptions: {
          collapseWhitespace: true,
          conservativeCollapse: true,
          decodeEntities: false,
          removeEmptyAttributes: false,
          minifyJS: false,
          // Lit reads unquoted attribute values as the HTML parser does; a bound one keeps its quotes.
          removeAttributeQuotes: true,
        },
      });
      return result ? { code: result.code, map: result.map?.toString() } : null;
    },
  };
}

/**
 * Browsers the shipped code must run in: ES2022, and Safari 15 (iOS 15) and later, which lacks class
 * static blocks; a script that fails to parse there would break the merchant's checkout outright.
 */
const target = ['es2022', 'safari15'];

/** The sandbox's source: the check command imports it from dist/sandbox.js (see cliFile). */
const sandboxEntry = fileURLToPath(new URL(npmEntries.sandbox, import.meta.url));

/**
 * `npx pay-widget check` (package.json "bin"), dist/cli/pay-widget.js: one file of its own, built
 * after the npm build. As another entry of that build it shared chunks with the browser entries
 * and moved the element's registration out of dist/define.js, which "sideEffects" names.
 */
const cliFile: Plugin = {
  name: 'pay-widget:cli-file',
  apply: 'build',
  async closeBundle() {
    await build({
      configFile: false,
      logLevel: 'warn',
      publicDir: false,
      build: {
        outDir: 'dist/cli',
        emptyOutDir: false,
        target: 'node20',
        sourcemap: true,
        minify: false,
        lib: { entry: { 'pay-widget': 'src/cli/pay-widget.ts' }, formats: ['es'] },
        // The sandbox is imported from dist/sandbox.js, not bundled again: its keys and token stay in
        // the one file meant to hold them.
        rolldownOptions: {
          // pg and redis: optional peer dependencies, loaded by `pay-widget ledger --postgres / --redis` only.
          external: [...npmExternal, /^pg(\/|$)/, /^redis(\/|$)/, sandboxEntry],
          output: { codeSplitting: false, paths: { [sandboxEntry]: '../sandbox.js' } },
        },
      },
    });
  },
};

const npmBuild: UserConfig = {
  publicDir: false,
  plugins: [ownModulesHaveSideEffects, shipLedgerSql, cliFile],
  build: {
    outDir: 'dist',
    emptyOutDir: true, // the first of the two builds starts from an empty dist/
    target,
    sourcemap: true,
    // Readable ES modules with their /*#__PURE__*/ annotations: the merchant's bundler minifies
    // and tree-shakes them. `npm run bench` reports their minified size too.
    minify: false,
    lib: { entry: npmEntries, formats: ['es'] },
    rolldownOptions: {
      external: npmExternal,
      // The registration must stay in dist/define.js, a file package.json "sideEffects" names, or a
      // merchant's bundler drops it and `import 'pay-widget'` defines nothing. Every entry reaches
      // define.ts and the element alike, so Rolldown puts both in one shared chunk; under Vite's
      // library default ('strict') that chunk gets a hashed name and define.js becomes a facade
      // importing it. 'allow-extension' lets define.js be that chunk: it registers the element and
      // also exports the element's internals, which index.js and react.js import from it.
      preserveEntrySignatures: 'allow-extension',
      output: { chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
};

/**
 * V8's explicit compile hint (Chrome 136+; other engines read a comment): compile every function of
 * the script tag while the script is loaded (off the main thread when it streams) instead of when
 * each is first called. Most of the script runs in the first render and the first submit, and
 * compiling a function lazily parses it twice. `npm run bench`, main-thread CPU: first render about
 * -1.3 ms, submit about -2 ms (bench/FINDINGS.md). It must be the file's first line.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * The script tag's size budgets, gzipped: a page pays them on every first visit. The first file
 * draws and checks the form; with the second (what runs after a submit, resume included) it is
 * everything one English USSD payment on a phone loads (issue 36: 16,896 and 23,040 B). Not in it: the
 * transfer screen's file (dist/pay-widget.transfer.js), which only a transfer loads, and a
 * computer's QR code file (dist/pay-widget.qr.js). Counted with Node's zlib at level 9, which comes
 * out a few dozen bytes above the `gzip -9` command: on the safe side.
 */
export const SCRIPT_TAG_BUDGET_BYTES = 16_896;
export const ONE_PAYMENT_BUDGET_BYTES = 23_040;

const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 9 }).byteLength;
const bytes = (n: number) => n.toLocaleString('en');

// ─── The files beside the script (issues 9, 18, 26, 36) ──────────────────────────────────────────
// Every file the element loads after the form (src/element/loading/later-files.ts) goes through one
// loader, src/element/loading/load.ts, which imports it with src/element/loading/import-entry.ts:
// `import()`s the npm build makes chunks of, with no help from here. The script tag cannot carry
// chunks, so this plugin swaps in src/element/loading/import-entry-beside-script.ts, and writes each
// entry of src/element/loading/entries/ beside the script as an ES module, dist/pay-widget.<name>.js,
// which take Lit and `format` from the first file (src/element/loading/from-first-file.ts). Then the budgets are
// checked and the sizes printed.
const loadingDir = fileURLToPath(new URL('./src/element/loading/', import.meta.url));
const entriesDir = `${loadingDir}entries/`;

/** The names of the files beside the script: one for each entry (after-submit, transfer, qr, fr, …). */
export const LATER_FILES = readdirSync(entriesDir).map((file) => file.replace(/\.ts$/, '')) as LaterFile[];

function filesBesideScript(): Plugin {
  let written = false;
  let logger: ResolvedConfig['logger'] | undefined;
  return {
    name: 'pay-widget:files-beside-script',
    apply: 'build',
    enforce: 'pre', // before Vite's resolver, which would find import-entry.ts
    configResolved(config) {
      logger = config.logger;
    },
    resolveId(source, importer) {
      if (source === './import-entry.js' && importer?.startsWith(loadingDir))
        return `${loadingDir}import-entry-beside-script.ts`;
      return null;
    },
    writeBundle(options, bundle) {
      // Not when built without writing (bench/lib/build.ts and scripts/bench-modules.ts reuse this config).
      if (!('pay-widget.iife.js' in bundle)) return;
      written = true;
      const first = gzipSize(`${options.dir}/pay-widget.iife.js`);
      if (first > SCRIPT_TAG_BUDGET_BYTES) {
        this.error(
          `dist/pay-widget.iife.js (the script tag's first file) is ${bytes(first)} B gzip, over its ${bytes(SCRIPT_TAG_BUDGET_BYTES)} B budget.`,
        );
      }
    },
    async closeBundle() {
      if (!written) return;
      for (const name of LATER_FILES) await build(fileBesideScriptBuild(name));
      const afterSubmit = fileBesideScript('after-submit');
      const transfer = fileBesideScript('transfer');
      const first = gzipSize('dist/pay-widget.iife.js');
      const second = gzipSize(`dist/${afterSubmit}`);
      const third = gzipSize(`dist/${transfer}`);
      logger?.info(
        `script tag, gzip -9: dist/pay-widget.iife.js ${bytes(first)} B (budget ${bytes(SCRIPT_TAG_BUDGET_BYTES)}), ` +
          `dist/${afterSubmit} ${bytes(second)} B, one English USSD payment ${bytes(first + second)} B (budget ${bytes(ONE_PAYMENT_BUDGET_BYTES)}); ` +
          `dist/${transfer} ${bytes(third)} B, one English transfer ${bytes(first + second + third)} B`,
      );
      if (first + second > ONE_PAYMENT_BUDGET_BYTES) {
        this.error(
          `dist/pay-widget.iife.js + dist/${afterSubmit} (what one English USSD payment loads) are ` +
            `${bytes(first)} + ${bytes(second)} = ${bytes(first + second)} B gzip, over their ${bytes(ONE_PAYMENT_BUDGET_BYTES)} B budget.`,
        );
      }
    },
  };
}

/**
 * A file beside the script's entry: entries/<name>.ts, plus `receiveShared`, by which the first
 * file's loader hands over its Lit and `format` (src/element/loading/import-entry-beside-script.ts).
 */
const ENTRY_WITH_SHARED = 'pay-widget-entry-with-shared:';
function entryWithShared(name: LaterFile): Plugin {
  const id = `\0pay-widget-entry:${name}`;
  return {
    name: 'pay-widget:entry-with-shared',
    // Vite's library mode reads its entry as a path under the root.
    resolveId: (source) => (source.endsWith(ENTRY_WITH_SHARED + name) ? id : null),
    load: (source) =>
      source === id
        ? `export * from '${entriesDir}${name}.ts';\nexport { receiveShared } from '${loadingDir}from-first-file.ts';\n`
        : null,
  };
}
// ─── end of the files beside the script ──────────────────────────────────────────────────────────

/**
 * Script-tag build only: a Terser pass over the bundle before Oxc minifies it. Each minifier finds
 * savings the other misses: together the script is about 105 B gzip smaller than with Oxc alone
 * (Terser alone, instead of Oxc, saves only a few bytes). `toplevel` only for the ES modules beside
 * the script (`module`), whose top-level names are their own: the IIFE's `var PayWidget` is the global; not `pure_getters` or `unsafe*`: Lit's getters and `this` must keep their meaning.
 * `keep_fargs: false` drops unused trailing parameters: nothing here reads a function's `length`.
 */
function terserBeforeOxc({ module = false } = {}): Plugin {
  let load: Promise<typeof import('terser')> | undefined;
  return {
    name: 'pay-widget:terser-before-oxc',
    apply: 'build',
    async renderChunk(code, chunk) {
      load ??= import('terser');
      const { minify } = await load;
      const result = await minify(code, {
        ecma: 2020,
        compress: { passes: 2, keep_fargs: false },
        mangle: true,
        toplevel: module,
        format: { comments: false },
        sourceMap: { filename: chunk.fileName, asObject: true },
      });
      return { code: result.code!, map: result.map as string };
    },
  };
}

/**
 * Oxc's minification of both script-tag files: full compression, identifier mangling, whitespace
 * removed. Not `mangle.toplevel`: in a classic script the IIFE's `var PayWidget` is the global. No
 * property mangling (public API, Lit internals).
 */
const oxcMinify = {
  compress: { target, dropDebugger: true },
  mangle: true,
  codegen: { removeWhitespace: true },
};

/** The same for the ES modules beside the script, whose top-level names are their own (`toplevel`). */
const oxcModuleMinify = { ...oxcMinify, mangle: { toplevel: true } };

const scriptTagBuild: UserConfig = {
  publicDir: false,
  plugins: [ownModulesHaveSideEffects, minifyTemplateLiterals(), filesBesideScript(), terserBeforeOxc()],
  // Bundle the production builds of Lit (its packages map the `development` condition to a
  // dev-mode build with warnings and extra checks; we never ask for it), and strip any
  // `process.env.NODE_ENV` branches. Vite's library mode leaves process.env.NODE_ENV alone on
  // purpose, so it is defined here.
  resolve: { conditions: ['browser', 'module', 'production'] },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist',
    emptyOutDir: false, // runs after the npm build: keep its files
    target,
    sourcemap: true,
    minify: 'oxc',
    lib: {
      entry: 'src/index.ts',
      formats: ['iife'],
      name: 'PayWidget', // the module's exports, as window.PayWidget
      fileName: () => 'pay-widget.iife.js',
    },
    rolldownOptions: {
      external: [], // everything in, Lit included
      output: {
        codeSplitting: false,
        generatedCode: { preset: 'es2015', symbols: false }, // no Symbol.toStringTag on window.PayWidget
        // Vite drops the bundled packages' licence comments when minifying, so one short notice for
        // everything inside is put back after minification.
        minify: oxcMinify,
        postBanner: `${COMPILE_HINT}\n/*! pay-widget ${pkgVersion} | MIT | bundles Lit (BSD-3-Clause, Google LLC) */`,
      },
    },
  },
};

/** Licences of what a file beside the script bundles besides our code. */
const besideScriptBanners: Partial<Record<LaterFile, string>> = {
  qr: '/*! pay-widget | MIT | bundles lean-qr (MIT, David Evans) */',
};

/** dist/pay-widget.<name>.js, an ES module that imports nothing, minified as the script is. */
export function fileBesideScriptBuild(name: LaterFile): InlineConfig {
  return {
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    plugins: [entryWithShared(name), minifyTemplateLiterals(), terserBeforeOxc({ module: true })],
    resolve: {
      // What the first file shares with the files beside it (src/element/loading/from-first-file.ts).
      alias: [
        { find: /^lit$/, replacement: `${loadingDir}from-first-file.ts` },
        { find: /^(\.\.?\/)+messages\/index\.js$/, replacement: `${loadingDir}from-first-file.ts` },
      ],
      conditions: ['browser', 'module', 'production'],
    },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      target,
      sourcemap: true,
      minify: 'oxc',
      lib: { entry: ENTRY_WITH_SHARED + name, formats: ['es'], fileName: () => fileBesideScript(name) },
      rolldownOptions: {
        output: { minify: oxcModuleMinify, postBanner: besideScriptBanners[name] ?? COMPILE_HINT },
      },
    },
  };
}

/** dist/pay-widget.after-submit.js's build. (scripts/bench-profile.ts builds it unminified.) */
export const afterSubmitBuild = fileBesideScriptBuild('after-submit');

// The demo: `root: 'demo'` so demo/index.html is served at /. It imports ../src directly; Vite's
// default fs.allow (the package root) already permits that. Dev mode keeps Lit's dev build and
// its warnings. Loopback only, as the tests and the demo's e2e test expect.
const devServer: UserConfig = {
  root: 'demo',
  publicDir: false,
  server: { host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { host: '127.0.0.1' },
};

export default defineConfig(({ command, mode }) => {
  if (command === 'serve') return devServer;
  return mode === 'script-tag' ? scriptTagBuild : npmBuild;
});
