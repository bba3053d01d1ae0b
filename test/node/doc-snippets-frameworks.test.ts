// Every framework snippet of docs/frameworks.md (React with the wrapper, React 19 and Preact with the
// element itself, Vue 3), run as a merchant runs it: the page's blocks written out as an app, the
// packed package installed into it, built for production by Vite, served beside a createPayments
// back end on the sandbox (mounted at /pay), and paid in headless Chromium by USSD until the widget
// says "Payment received": the session, the status polled where the session's answer points (the
// snippets set no status-url), the sandbox's webhook to the back end, onPaid once. Run after
// `npm run build` (with Chromium: node scripts/ensure-chromium.mjs).
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { createGateway, createMemoryStores, createPayments } from '../../src/server/index.js';
import { toNodeHandler } from '../../src/server/node.js';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import {
  buildApp,
  createConsumerApp,
  launchChromium,
  packPackage,
  repoRoot,
  serve,
  type PackedPackage,
  type Route,
} from './consumer-app.js';
import { codeBlocks, type CodeBlock } from './doc-snippets.js';

const PAGE = 'docs/frameworks.md';
/** Only a failure waits this long: generous for a loaded machine. */
const STEP_MS = 30_000;
const INDEX = (entry: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Checkout</title><script type="module" src="/${entry}"></script></head><body><div id="app"></div></body></html>`;

const blocks = codeBlocks(PAGE, await readFile(join(repoRoot, PAGE), 'utf8'));
const tsx = blocks.filter((block) => block.lang === 'tsx');
const byStart = (lang: string, start: string): CodeBlock => {
  const block = blocks.find((candidate) => candidate.lang === lang && candidate.code.startsWith(start));
  assert.ok(block, `${PAGE} has a ${lang} block starting ${start}`);
  return block;
};

/** Each snippet as an app: its files, and the packages the merchant has besides pay-widget. */
const apps = [
  {
    name: 'React, with the pay-widget/react wrapper',
    snippet: tsx.find((block) => block.code.includes("from 'pay-widget/react'")),
    tools: ['vite', 'react', 'react-dom'],
    files: (code: string) => ({
      'checkout.tsx': code,
      'main.tsx':
        "import { createRoot } from 'react-dom/client';\nimport { Checkout } from './checkout';\ncreateRoot(document.getElementById('app')!).render(<Checkout />);\n",
      'index.html': INDEX('main.tsx'),
    }),
  },
  {
    name: 'React 19, the element itself',
    snippet: tsx.find((block) => block.code.includes("from 'pay-widget/jsx-react'")),
    tools: ['vite', 'react', 'react-dom'],
    files: (code: string) => ({
      'checkout.tsx': code,
      'main.tsx':
        "import { createRoot } from 'react-dom/client';\nimport { Checkout } from './checkout';\ncreateRoot(document.getElementById('app')!).render(<Checkout />);\n",
      'index.html': INDEX('main.tsx'),
    }),
  },
  {
    name: 'Preact, the element itself',
    snippet: tsx.find((block) => block.code.includes("from 'pay-widget/jsx-preact'")),
    tools: ['vite', 'preact'],
    files: (code: string) => ({
      'checkout.tsx': code,
      'main.tsx':
        "/** @jsxImportSource preact */\nimport { render } from 'preact';\nimport { Checkout } from './checkout';\nrender(<Checkout />, document.getElementById('app')!);\n",
      'index.html': INDEX('main.tsx'),
    }),
  },
  {
    name: 'Vue 3',
    snippet: byStart('vue', '<pay-widget'),
    tools: ['vite', 'vue', '@vitejs/plugin-vue'],
    files: (code: string) => ({
      'main.js': byStart('js', '// main.js').code,
      'vite.config.js': byStart('js', '// vite.config.js').code,
      // The page's template line, in the component it belongs to, with the handler it names.
      'App.vue': `<script setup>\nfunction onPayment(event) {\n  document.body.dataset.reference = event.detail.paymentReference;\n}\n</script>\n\n<template>\n  ${code.trim()}\n</template>\n`,
      'index.html': INDEX('main.js'),
    }),
  },
];

const closers: (() => Promise<unknown>)[] = [];
let pack: PackedPackage;
let browser: Browser;
const openPages = new Set<Page>();

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

afterEach(async () => {
  for (const page of openPages) await page.close().catch(() => undefined);
  openPages.clear();
});

/** The built app on 127.0.0.1 with createPayments at /pay; what it started and what onPaid saw. */
async function servedWithPayments(root: string) {
  let listener: ReturnType<typeof toNodeHandler> | undefined;
  const pay: Route = (request, response) => listener!(request, response);
  const served = await serve(root, { '/pay/session': pay, '/pay/status': pay, '/pay/webhook': pay });
  closers.push(served.close);
  // allowInProduction: Vite's production build, in this process, set NODE_ENV=production.
  const sandbox = createSandboxGateway({ webhookUrl: `${served.origin}/pay/webhook`, allowInProduction: true });
  closers.push(() => sandbox.webhooksSettled());
  const started: string[] = [];
  const paid: string[] = [];
  const payments = createPayments({
    gateway: createGateway({
      baseUrl: 'https://sandbox.invalid',
      publicKey: SANDBOX_PUBLIC_KEY,
      secretKey: SANDBOX_SECRET_KEY,
      fetch: sandbox.fetch,
    }),
    stores: createMemoryStores(),
    order: async () => ({ amount: '5000.00', currency: 'NGN' }),
    onPaid: (payment) => void paid.push(payment.paymentReference),
    onEvent: (event) => void (event.type === 'initiated' && started.push(event.paymentReference)),
    publicUrl: `${served.origin}/pay`,
    reconcile: false,
  });
  listener = toNodeHandler(payments);
  return { served, sandbox, started, paid };
}

/** As a customer: USSD, their details, GTBank, Pay; then the dial code. */
async function payByUssd(page: Page): Promise<void> {
  await page.waitForSelector('pierce/form[part~="form"]', { visible: true });
  await page.click('pierce/input[name="paymentType"][value="USSD"]');
  await page.type('pierce/#fullName', 'Ada Obi');
  await page.type('pierce/#email', 'ada@example.com');
  await page.type('pierce/#mobileNumber', '08012345678');
  await page.select('pierce/#bankCode', '058');
  await page.click('pierce/button[part~="submit"]');
  await page.waitForSelector('pierce/[part~="dial-code"]', { visible: true }).catch(async (error: Error) => {
    const text = await page.$eval('pay-widget', (widget) => widget.shadowRoot?.textContent?.replace(/\s+/g, ' '));
    throw new Error(`${error.message}; the widget shows: ${text}`);
  });
}

describe(`the framework snippets of ${PAGE}, built and paid against a createPayments back end`, () => {
  for (const app of apps) {
    it(`${app.name}: pays by USSD until "Payment received"`, async () => {
      assert.ok(app.snippet, `${PAGE} has the ${app.name} snippet`);
      const source = join(repoRoot, 'test-results', 'doc-snippets-frameworks', app.name.replace(/\W+/g, '-'));
      await rm(source, { recursive: true, force: true });
      await mkdir(source, { recursive: true });
      for (const [file, text] of Object.entries(app.files(app.snippet.code))) await writeFile(join(source, file), text);
      const installed = await createConsumerApp(pack.tarball, 'docs-frameworks', app.tools, source);
      closers.push(installed.close);
      const { served, sandbox, started, paid } = await servedWithPayments(await buildApp(installed.dir));

      const page = await browser.newPage();
      openPages.add(page);
      page.setDefaultTimeout(STEP_MS);
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${served.origin}/`, { waitUntil: 'load' });
      assert.equal(
        await page.$eval('pay-widget', (widget) => widget.hasAttribute('status-url')),
        false,
        'the snippet sets no status-url',
      );
      await payByUssd(page);
      assert.equal(started.length, 1, 'one payment started');

      assert.ok(sandbox.setStatus(started[0]!, 'SUCCESS'), 'the customer paid');
      await page
        .waitForFunction(() =>
          document.querySelector('pay-widget')?.shadowRoot?.textContent?.includes('Payment received'),
        )
        .catch(async (error: Error) => {
          const text = await page.$eval('pay-widget', (widget) => widget.shadowRoot?.textContent?.replace(/\s+/g, ' '));
          throw new Error(`${error.message}; onPaid saw ${JSON.stringify(paid)}; the widget shows: ${text}`);
        });
      assert.deepEqual(paid, started, 'onPaid once, for that payment');
      assert.deepEqual(errors, []);
    });
  }
});
