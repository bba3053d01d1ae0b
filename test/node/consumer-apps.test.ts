/**
 * The package as a merchant gets it: `npm pack`ed (once), installed into a fresh app outside this
 * repository, built for production with Vite, and opened in headless Chromium. One app per README
 * recipe: `import 'pay-widget'` with a bundler, Vue 3, React 19 and Preact with the element itself;
 * and the TSX / Vue type declarations checked by tsc. Run after `npm run build`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, Page } from 'puppeteer-core';
import {
  buildApp,
  createConsumerApp,
  launchChromium,
  packPackage,
  serve,
  repoRoot,
  sideEffects,
  type ConsumerApp,
  type PackedPackage,
  type Served,
} from './consumer-app.js';

/** How long to wait for one thing to appear on the page: only a failure takes this long, so generous for a loaded machine. */
const STEP_MS = 30_000;

/**
 * Waits for `pierce/…` inside the widget's shadow root to be shown. Not with Puppeteer's default
 * for pierce selectors, a MutationObserver on the document, which never sees a change inside a
 * shadow root: it looked again only on the page's own changes, and missed the dial code whenever
 * Preact updated the page just before Lit rendered the code. `visible` checks on every frame.
 */
const shown = (page: Page, selector: string) => page.waitForSelector(selector, { visible: true });

const closers: (() => Promise<void>)[] = [];
let pack: PackedPackage;
let browser: Browser;

before(async () => {
  pack = await packPackage();
  closers.push(pack.close);
  const chromium = await launchChromium();
  closers.push(chromium.close);
  browser = chromium.browser;
});

after(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

// Each test's tabs close after it, passed or failed: a page left running cannot slow the next test.
const openPages = new Set<Page>();
afterEach(async () => {
  for (const page of openPages) await page.close().catch(() => undefined);
  openPages.clear();
});

/** Installs, builds and serves test/fixtures/<fixture> on 127.0.0.1. */
async function builtApp(fixture: string, tools: string[], routes: Parameters<typeof serve>[1] = {}) {
  const app = await createConsumerApp(pack.tarball, fixture, tools);
  closers.push(app.close);
  const served = await serve(await buildApp(app.dir), routes);
  closers.push(served.close);
  return { app, served };
}

/** A new tab on `url` that records uncaught errors and requests to anywhere but `origin`. */
async function open(url: string): Promise<{ page: Page; errors: string[]; foreign: string[] }> {
  const page = await browser.newPage();
  openPages.add(page);
  page.setDefaultTimeout(STEP_MS);
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(url).origin)) foreign.push(request.url());
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, foreign };
}

/**
 * Asserts that the loaded page's `<pay-widget>` is a defined custom element (the app's module
 * scripts have all run by `load`), and returns the text its form shows once rendered.
 */
async function assertDefinedWidget(page: Page): Promise<string> {
  const defined = await page.evaluate(
    () => customElements.get('pay-widget') !== undefined && document.querySelector('pay-widget')?.matches(':defined'),
  );
  assert.equal(defined, true, '<pay-widget> is a defined custom element, not an unknown tag');
  const form = await shown(page, 'pierce/form[part~="form"]');
  return form!.evaluate((element) => (element.textContent ?? '').replace(/\s+/g, ' '));
}

describe("a production Vite build of `import 'pay-widget'`", () => {
  let app: ConsumerApp;
  let served: Served;

  before(async () => {
    ({ app, served } = await builtApp('consumer-vite', ['vite']));
  });

  it('registers <pay-widget> and renders its form with the amount', async () => {
    const { page, errors, foreign } = await open(`${served.origin}/`);
    const formText = await assertDefinedWidget(page);
    assert.match(formText, /5,000/, `the form shows the amount, got: ${formText}`);
    assert.ok(await page.$('pierce/input[name="paymentType"][value="USSD"]'), 'the USSD choice is offered');
    assert.deepEqual(errors, []);
    assert.deepEqual(foreign, [], 'the page loads nothing from elsewhere');
  });

  it('ships every file that registers the element under a name in package.json "sideEffects"', async () => {
    // Vite is one bundler; webpack, esbuild and Parcel drop the same unnamed files.
    const installed = join(app.dir, 'node_modules', 'pay-widget');
    const scripts = pack.files.filter((file) => /^dist\/.*\.m?js$/.test(file) && !file.includes('iife'));
    const registering: string[] = [];
    for (const file of scripts) {
      if ((await readFile(join(installed, file), 'utf8')).includes('customElements.define(')) registering.push(file);
    }
    assert.notDeepEqual(registering, [], 'some file in dist/ registers the element');
    const unnamed = registering.filter((file) => !sideEffects.some((glob) => glob.test(file)));
    assert.deepEqual(unnamed, [], 'each registering file is named in "sideEffects"');
  });
});

/** The spec's USSD envelope (2.2, 2.3) and the order the server charges. */
const SESSION_ANSWER = {
  status: 'SUCCESS',
  data: {
    code: null,
    message: null,
    payments: {
      paymentReference: 'ORD-1001',
      linkingReference: 'LNK-77881',
      providerreference: 'PRV-55210',
      ussdDailCode: '*737*000*4412#',
    },
  },
  order: { paymentReference: 'ORD-1001', amount: '5000.00', currency: 'NGN' },
};

/** An app built and served with a fake session endpoint that answers SESSION_ANSWER and records each request. */
async function builtCheckout(fixture: string, tools: string[]) {
  const sessionRequests: Record<string, unknown>[] = [];
  const { served } = await builtApp(fixture, tools, {
    '/pay/session': async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      sessionRequests.push(JSON.parse(body));
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(SESSION_ANSWER));
    },
  });
  return { served, sessionRequests };
}

/**
 * As a customer: picks USSD, types their details, picks GTBank, pays; then waits for the dial code
 * and for the app's own pay-initiated handler to show the reference in #initiated.
 */
async function payByUssd(page: Page): Promise<void> {
  await page.click('pierce/input[name="paymentType"][value="USSD"]');
  await page.type('pierce/#fullName', 'Ada Obi');
  await page.type('pierce/#email', 'ada@example.com');
  await page.type('pierce/#mobileNumber', '08012345678');
  await page.select('pierce/#bankCode', '058');
  await page.click('pierce/button[part~="submit"]');

  const dialCode = await shown(page, 'pierce/[part~="dial-code"]').catch(async (error: Error) => {
    const shown = await page.$eval('pay-widget', (widget) => widget.shadowRoot?.textContent?.replace(/\s+/g, ' '));
    throw new Error(`${error.message}; the widget shows: ${shown}`);
  });
  assert.equal((await dialCode!.evaluate((element) => element.textContent ?? '')).trim(), '*737*000*4412#');
  await page.waitForFunction(() => document.querySelector('#initiated')?.textContent === 'ORD-1001');
}

describe('a Vue 3 app with the README recipe', () => {
  let checkout: Awaited<ReturnType<typeof builtCheckout>>;

  before(async () => {
    checkout = await builtCheckout('consumer-vue', ['vite', 'vue', '@vitejs/plugin-vue']);
  });

  it('renders <pay-widget>, showing the amount Vue binds as a number (:amount="5000")', async () => {
    // `:amount="5000"` sets the `amount` property to the number 5000.
    const { page, errors } = await open(`${checkout.served.origin}/`);
    const formText = await assertDefinedWidget(page);
    assert.match(formText, /5,000/, `the form shows the amount, got: ${formText}`);
    assert.deepEqual(errors, []);
  });

  it("starts a payment by USSD, and Vue's @pay-initiated handler receives its reference", async () => {
    const { page, errors } = await open(`${checkout.served.origin}/`);
    await payByUssd(page);
    assert.equal(checkout.sessionRequests.length, 1, 'one request to the session endpoint');
    assert.equal(checkout.sessionRequests[0]!.paymentType, 'USSD');
    assert.equal(Number(checkout.sessionRequests[0]!.amount), 5000, 'the amount hint is the bound number');
    assert.deepEqual(errors, []);
  });
});

// The element itself in JSX, typed by pay-widget/jsx-react or pay-widget/jsx-preact: both frameworks
// set the one-word props as properties and add `onpay-…` handlers as listeners for `pay-…` events.
const jsxApps = [
  { framework: 'React 19', fixture: 'consumer-react', tools: ['vite', 'react', 'react-dom'] },
  { framework: 'Preact', fixture: 'consumer-preact', tools: ['vite', 'preact'] },
];
for (const { framework, fixture, tools } of jsxApps) {
  describe(`a ${framework} app using <pay-widget> itself, without a wrapper`, () => {
    let checkout: Awaited<ReturnType<typeof builtCheckout>>;

    before(async () => {
      checkout = await builtCheckout(fixture, tools);
    });

    it('renders it, starts a payment by USSD, and the onpay-initiated prop receives the reference', async () => {
      const { page, errors } = await open(`${checkout.served.origin}/`);
      const formText = await assertDefinedWidget(page);
      assert.match(formText, /5,000/, `the form shows the amount, got: ${formText}`);
      await payByUssd(page);
      assert.equal(checkout.sessionRequests.length, 1, 'one request to the session endpoint');
      assert.deepEqual(errors, []);
    });
  });
}

describe('TypeScript in a React 19, Preact or Vue app', () => {
  it("type-checks <pay-widget> in React and Preact TSX and in Vue's GlobalComponents, and flags each mistake", async () => {
    // test/fixtures/consumer-types: correct uses must compile, and every line under @ts-expect-error
    // must be an error (TypeScript reports an unused @ts-expect-error), in one strict tsc run.
    const app = await createConsumerApp(pack.tarball, 'consumer-types', ['react', '@types/react', 'preact', 'vue']);
    closers.push(app.close);
    const tsc = join(repoRoot, 'node_modules', '.bin', 'tsc');
    const result = await promisify(execFile)(tsc, ['-p', join(app.dir, 'tsconfig.json')], { cwd: app.dir }).then(
      ({ stdout }) => ({ failed: false, output: stdout }),
      (error: { stdout?: string; stderr?: string }) => ({ failed: true, output: `${error.stdout}${error.stderr}` }),
    );
    assert.equal(result.output.trim(), '', 'tsc reports nothing');
    assert.equal(result.failed, false);
  });
});
