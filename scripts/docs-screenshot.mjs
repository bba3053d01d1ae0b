// The README's screenshot, docs/public/widget.png: the script-tag build from dist/ (run `npm run
// build` first) in headless Chromium, one widget on its form and one showing the USSD code to
// dial, answered by a canned `initiate` (no network, no server but this file's on 127.0.0.1).
// Run: node scripts/docs-screenshot.mjs
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, requireChromium } from './ensure-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const output = join(root, 'docs', 'public', 'widget.png');

const page = `<!doctype html><html lang="en"><meta charset="utf-8">
<style>body { margin: 0; padding: 24px; font-family: system-ui; background: #f4f5f7; display: flex; gap: 24px; align-items: flex-start; }
pay-widget { width: 340px; }</style>
<script src="/dist/pay-widget.iife.js"></script>
<pay-widget id="form" amount="5000" payment-type="USSD" full-name="Ada Obi" email="ada@example.com" mobile-number="08031234567"></pay-widget>
<pay-widget id="result" amount="5000" payment-type="USSD" full-name="Ada Obi" email="ada@example.com" mobile-number="08031234567"></pay-widget>`;

const server = createServer(async (request, response) => {
  const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
  if (path === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(page);
  try {
    const body = await readFile(join(root, path.replace(/\.\.+/g, '')));
    response
      .writeHead(200, { 'content-type': extname(path) === '.js' ? 'text/javascript' : 'application/octet-stream' })
      .end(body);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;

const browser = await puppeteer.launch({ executablePath: requireChromium(), args: [...CHROMIUM_FLAGS] });
try {
  const tab = await browser.newPage();
  await tab.setViewport({ width: 780, height: 720, deviceScaleFactor: 1 });
  await tab.goto(`http://127.0.0.1:${port}/`);
  await tab.evaluate(async () => {
    await customElements.whenDefined('pay-widget');
    const payments = {
      paymentReference: 'ORD-1001',
      linkingReference: 'LNK-77881',
      providerreference: 'PRV-55210',
      ussdDailCode: '*737*000*4412#',
    };
    for (const el of document.querySelectorAll('pay-widget')) {
      el.initiate = async () => ({
        status: 'SUCCESS',
        data: { code: null, message: null, payments },
        order: { paymentReference: 'ORD-1001', amount: '5000.00', currency: 'NGN' },
      });
      await el.updateComplete;
      const select = el.shadowRoot.querySelector('[name="bankCode"]');
      select.value = '058';
      select.dispatchEvent(new Event('change', { bubbles: true }));
      await el.updateComplete;
    }
    const result = document.getElementById('result');
    const initiated = new Promise((resolve) => result.addEventListener('pay-initiated', resolve, { once: true }));
    result.submit();
    await initiated;
    await result.updateComplete;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const height = await tab.evaluate(
    () =>
      Math.ceil(
        Math.max(...[...document.querySelectorAll('pay-widget')].map((el) => el.getBoundingClientRect().bottom)),
      ) + 24,
  );
  await tab.screenshot({ path: output, clip: { x: 0, y: 0, width: 752, height } });
  console.log(`wrote ${output}`);
} finally {
  await browser.close();
  server.close();
}
