/**
 * Web Test Runner: the browser tests (test/browser/**\/*.test.ts) in headless Chrome/Chromium.
 *
 * `npm run test:browser` runs `node scripts/ensure-chromium.mjs` first, which installs Chromium on a
 * root Debian CI box; here we only look it up. Nothing downloads a browser.
 *
 * - TypeScript through esbuild, reading tsconfig.json so `experimentalDecorators` and
 *   `useDefineForClassFields: false` apply exactly as in the library build (Lit's legacy decorators).
 * - Bare imports resolved with the `production` export condition, like the script-tag build, so the
 *   tests run the Lit the customer gets (set WTR_LIT_DEV=1 to get Lit's dev-mode warnings instead).
 * - The test server listens on 127.0.0.1 only; tests must talk to nothing else.
 * - Zero matching test files is an error (web-test-runner refuses to start: "Could not find any
 *   test files"), and the default reporter ends every run with one line: "Finished running tests in
 *   Ns, all tests passed!" or "… with N failed tests.", after the per-browser counts.
 *
 * - React and react-dom (test/browser/react.test.ts) are CommonJS, which the dev server serves as is:
 *   `reactBundlePlugin` below bundles `react`, `react-dom` and `react-dom/client` once, on first
 *   import, into ES modules with esbuild (in memory, sharing one React) and serves them instead.
 *   `process.env.NODE_ENV` is `production`, or `development` with WTR_LIT_DEV=1.
 *
 * Env: CHROME_PATH (browser), WTR_CONCURRENCY (pages at once, default 2), WTR_LIT_DEV=1.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_FLAGS, findChromium, missingChromiumMessage } from './scripts/ensure-chromium.mjs';

const executablePath = findChromium();
if (!executablePath) {
  throw new Error(`${missingChromiumMessage()} (or run: node scripts/ensure-chromium.mjs)`);
}

/**
 * Serves `react`, `react-dom` and `react-dom/client` as ES modules. `@rollup/plugin-commonjs` through
 * `@web/dev-server-rollup` cannot do it: it relies on Rollup's bundle-time synthetic named exports, so
 * the dev server's one-file-at-a-time modules lose React's named exports (`createRoot` is "not
 * provided"; modernweb-dev/web#1700, #2386). esbuild cannot name a CommonJS module's exports either,
 * so each entry lists them, read from the package in Node.
 */
function reactBundlePlugin() {
  const prefix = '/__react-esm__/';
  const entries = { react: 'react', 'react-dom': 'react-dom', 'react-dom/client': 'react-dom-client' };
  const mode = process.env.WTR_LIT_DEV ? 'development' : 'production';
  /** @type {Promise<Map<string, string>> | undefined} */
  let bundled;

  /**
   * Each entry's export names, read in a child Node under the bundle's NODE_ENV (React's development
   * build has more), since React must not load in this process: the test runner replaces its console.
   * @returns {Record<string, string[]>}
   */
  function exportNames() {
    const script = `const keys = {}; for (const s of ${JSON.stringify(Object.keys(entries))}) keys[s] = Object.keys(require(s)); console.log(JSON.stringify(keys));`;
    return JSON.parse(
      execFileSync(process.execPath, ['-e', script], { env: { ...process.env, NODE_ENV: mode }, encoding: 'utf8' }),
    );
  }

  function bundle() {
    const names = exportNames();
    return build({
      entryPoints: Object.entries(entries).map(([specifier, out]) => ({ in: `entry:${specifier}`, out })),
      bundle: true,
      splitting: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      outdir: path.resolve('.react-esm'), // never written: the files stay in memory
      define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
      logLevel: 'warning',
      plugins: [
        {
          name: 'react-esm-entries',
          setup(esbuild) {
            esbuild.onResolve({ filter: /^entry:/ }, (args) => ({
              path: args.path.slice('entry:'.length),
              namespace: 'entry',
            }));
            esbuild.onLoad({ filter: /.*/, namespace: 'entry' }, ({ path: specifier }) => {
              const named = (names[specifier] ?? []).filter(
                (name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default',
              );
              return {
                contents: `import cjs from '${specifier}';\nexport default cjs;\nexport const { ${named.join(', ')} } = cjs;\n`,
                resolveDir: process.cwd(),
              };
            });
          },
        },
      ],
    }).then(({ outputFiles }) => new Map(outputFiles.map((file) => [path.basename(file.path), file.text])));
  }

  return {
    name: 'react-esm',
    resolveImport({ source }) {
      if (Object.hasOwn(entries, source)) return `${prefix}${entries[source]}.js`;
    },
    async serve(context) {
      if (!context.path.startsWith(prefix)) return;
      const body = (await (bundled ??= bundle())).get(context.path.slice(prefix.length));
      if (body !== undefined) return { body, type: 'js' };
    },
  };
}

const SCREENSHOT_TIMEOUT_MS = 10_000;

/** `promise`, or a rejection with `message` once `ms` have passed. */
function withinTime(promise, ms, message) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${message} in ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Two page commands @web/test-runner-commands lacks, sent with `executeServerCommand`:
 * - `forced-colors` `{ active }`: emulates Windows high contrast (`forced-colors: active`);
 * - `screenshot` `{ name, clip }`: saves a PNG of that part of the page to test-results/<name>.png,
 *   for a person to look at (the tests check the same thing by geometry).
 */
function pageCommandsPlugin() {
  const protocolSessions = new WeakMap();
  /** The screenshot under way, if any: the next one waits for it (see below). */
  let screenshotTaken = Promise.resolve();
  return {
    name: 'pay-widget:page-commands',
    async executeCommand({ command, payload, session }) {
      if (command !== 'forced-colors' && command !== 'screenshot') return undefined;
      const page = session.browser.getPage(session.id);
      if (command === 'forced-colors') {
        // Puppeteer's emulateMediaFeatures() refuses this feature by name; Chromium's protocol takes it.
        // The emulation lasts as long as the protocol session, so the page keeps one.
        if (!protocolSessions.has(page)) protocolSessions.set(page, await page.createCDPSession());
        const features = [{ name: 'forced-colors', value: payload.active ? 'active' : 'none' }];
        await protocolSessions.get(page).send('Emulation.setEmulatedMedia', { features });
        return true;
      }
      if (!/^[\w.-]+$/.test(payload.name)) throw new Error(`screenshot: a plain file name, not ${payload.name}`);
      mkdirSync('test-results', { recursive: true });
      // Headless Chromium draws no frame for a page in a background tab, and a screenshot waits for
      // one: with two pages at once, the one behind waited until its test timed out. So the page is
      // brought to the front, and one screenshot is taken at a time: two pages bringing themselves
      // to the front at once left the first one's screenshot waiting behind the second (a clean-clone
      // CI run timed out two tests that way). A screenshot that still gets no frame fails its test
      // after SCREENSHOT_TIMEOUT_MS instead of holding the next one.
      const take = async () => {
        await page.bringToFront();
        await page.screenshot({ path: path.join('test-results', `${payload.name}.png`), clip: payload.clip });
      };
      const taken = screenshotTaken.then(() =>
        withinTime(take(), SCREENSHOT_TIMEOUT_MS, `screenshot ${payload.name}: no frame drawn`),
      );
      screenshotTaken = taken.catch(() => {});
      await taken;
      return true;
    },
  };
}

/**
 * The script tag's second file, held back: requests for HELD_SECOND_FILE (any query) wait until a
 * page sends the command `held-second-file` `{ release: true }`; the command answers
 * `{ requested, waiting }`, the requests seen and those still held. For
 * test/browser/script-tag-second-file.test.ts, whose fixture folder links the built script and its
 * second file (dist/), so that a Pay pressed before the file arrives meets a real, late fetch.
 */
const HELD_SECOND_FILE = '/test/browser/fixtures/script-tag-held/pay-widget.after-submit.js';
function heldSecondFile() {
  let release = () => {};
  const released = new Promise((resolve) => (release = resolve));
  let requested = 0;
  let waiting = 0;
  return {
    /** @type {import('koa').Middleware} */
    async middleware(context, next) {
      if (context.path === HELD_SECOND_FILE) {
        requested += 1;
        waiting += 1;
        await released;
        waiting -= 1;
      }
      await next();
    },
    plugin: {
      name: 'pay-widget:held-second-file',
      executeCommand({ command, payload }) {
        if (command !== 'held-second-file') return undefined;
        if (payload?.release) release();
        return { requested, waiting };
      },
    },
  };
}
const held = heldSecondFile();

/**
 * The files beside the script tag in test/browser/fixtures/script-tag-switchable/ (links to dist/),
 * answered as a page asks with the command `files-beside-script` `{ file, answer }`: 'served' (the
 * default), 'missing' (404) or 'offline' (the connection is dropped, no answer at all). The command
 * answers the requests seen for each file, query included. For test/browser/script-tag-loader.test.ts.
 */
const SWITCHABLE = '/test/browser/fixtures/script-tag-switchable/';
function switchableFiles() {
  /** @type {Map<string, string>} */
  const answers = new Map();
  /** @type {string[]} */
  const requested = [];
  return {
    /** @type {import('koa').Middleware} */
    async middleware(context, next) {
      if (!context.path.startsWith(SWITCHABLE)) return next();
      const file = context.path.slice(SWITCHABLE.length);
      requested.push(file + context.search);
      const answer = answers.get(file) ?? 'served';
      if (answer === 'offline') return void context.req.socket.destroy();
      if (answer === 'missing') return void ((context.status = 404), (context.body = 'Not found'));
      return next();
    },
    plugin: {
      name: 'pay-widget:switchable-files',
      executeCommand({ command, payload }) {
        if (command !== 'files-beside-script') return undefined;
        if (payload?.file) answers.set(payload.file, payload.answer);
        return { requested };
      },
    },
  };
}
const switchable = switchableFiles();

const concurrency = Math.max(1, Number(process.env.WTR_CONCURRENCY) || 2);

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  rootDir: '.',
  files: ['test/browser/**/*.test.ts'],
  hostname: '127.0.0.1',
  nodeResolve: {
    exportConditions: process.env.WTR_LIT_DEV ? ['development'] : ['production'],
  },
  middleware: [held.middleware, switchable.middleware],
  plugins: [
    esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }),
    reactBundlePlugin(),
    pageCommandsPlugin(),
    held.plugin,
    switchable.plugin,
  ],
  browsers: [
    chromeLauncher({
      concurrency,
      launchOptions: {
        executablePath,
        headless: true,
        // The screenshot command brings its page to the front, which sends the other page to the
        // back: its timers and rendering must not slow down there.
        args: [
          ...CHROMIUM_FLAGS,
          '--disable-background-timer-throttling',
          '--disable-renderer-backgrounding',
          '--disable-backgrounding-occluded-windows',
        ],
      },
      // Several pages share one browser: make each behave as the focused page, so focus
      // management and keyboard tests do not depend on which tab happens to be in front.
      async createPage({ context }) {
        const page = await context.newPage();
        await page.emulateFocusedPage(true);
        return page;
      },
    }),
  ],
  concurrency,
  concurrentBrowsers: 1,
  browserStartTimeout: 120_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 180_000,
  testFramework: {
    // A hang guard, not a speed check: the first axe run or locale import of a file can take
    // seconds on a loaded 2-core machine.
    config: { ui: 'bdd', timeout: 15_000 },
  },
  staticLogging: Boolean(process.env.CI) || !process.stdout.isTTY,
};
