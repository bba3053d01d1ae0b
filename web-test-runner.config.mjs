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
 * Env: CHROME_PATH (browser), WTR_CONCURRENCY (pages at once, default 2), WTR_LIT_DEV=1.
 */
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { findChromium, missingChromiumMessage } from './scripts/ensure-chromium.mjs';

const executablePath = findChromium();
if (!executablePath) {
  throw new Error(`${missingChromiumMessage()} (or run: node scripts/ensure-chromium.mjs)`);
}

const concurrency = Math.max(1, Number(process.env.WTR_CONCURRENCY) || 2);

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  rootDir: '.',
  files: ['test/browser/**/*.test.ts'],
  hostname: '127.0.0.1',
  nodeResolve: {
    exportConditions: process.env.WTR_LIT_DEV ? ['development'] : ['production'],
  },
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
  browsers: [
    chromeLauncher({
      concurrency,
      launchOptions: {
        executablePath,
        headless: true,
        args: [
          '--headless=new',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
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
    config: { ui: 'bdd', timeout: 5000 },
  },
  staticLogging: Boolean(process.env.CI) || !process.stdout.isTTY,
};
