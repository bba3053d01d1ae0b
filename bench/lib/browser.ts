/**
 * The browser figures, in the system Chromium the tests use (scripts/ensure-chromium.mjs), headless,
 * with no network but 127.0.0.1. Every sample gets a fresh browser context (its own renderer, cache
 * and storage), so each load is a customer's first.
 */
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS, findChromium, missingChromiumMessage } from '../../scripts/ensure-chromium.mjs';
import { CUSTOMER } from './server.js';

export const BENCH_CHROMIUM_FLAGS = [
  ...CHROMIUM_FLAGS,
  // Every host name fails to resolve: nothing but 127.0.0.1 can be reached.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  // Every new browser context opens a window whose omnibox popups are WebUI pages, each loaded in
  // a renderer of its own: 10-20 ms of CPU per sample, on the same two cores, while the page is
  // measured. A customer's browser pays that once per window, not per page. (Puppeteer merges this
  // list with its own --disable-features.)
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(missingChromiumMessage());
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: BENCH_CHROMIUM_FLAGS,
    defaultViewport: { width: 800, height: 1400 },
  });
}

/** Runs `use` on a new page in a new browser context, and closes the context afterwards. */
export async function inFreshContext<T>(browser: Browser, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await captureOneStackFrame(page);
    return await use(page);
  } finally {
    await context.close();
  }
}

/**
 * Wherever Blink notes which script started something (`fetch()` does, for the request's
 * initiator), it captures the JavaScript stack: one frame in a customer's browser, the whole stack
 * once DevTools' Runtime domain is enabled, as Puppeteer's own session has it. V8 then recompiles
 * every function on that stack to find its source positions: 5-10 ms of a throttled submit for the
 * widget, whose `fetch()` is about ten calls deep, and next to nothing for the raw fetch's one
 * (bench/FINDINGS.md, fourth pass). So the page captures one frame, as with no DevTools attached.
 * Only Puppeteer's own session can ask (V8 takes the largest size any session asks for), hence
 * its internal `_client()`.
 */
async function captureOneStackFrame(page: Page): Promise<void> {
  const session = (page as unknown as { _client?: () => CDPSession })._client?.();
  if (!session)
    throw new Error(
      'bench: Puppeteer no longer offers page._client(); see captureOneStackFrame in bench/lib/browser.ts',
    );
  await session.send('Runtime.setMaxCallStackSizeToCapture', { size: 1 });
}

/**
 * As `inFreshContext`, with the page's main thread slowed `rate` times, as on a low-end Android
 * phone (Puppeteer's `emulateCPUThrottling`, i.e. CDP `Emulation.setCPUThrottlingRate`).
 */
export function inFreshThrottledContext<T>(
  browser: Browser,
  rate: number,
  use: (page: Page) => Promise<T>,
): Promise<T> {
  return inFreshContext(browser, async (page) => {
    await page.emulateCPUThrottling(rate);
    return use(page);
  });
}

/**
 * Runs `measure` while Chrome traces the page's performance marks, and returns with its result the
 * main thread's CPU clock at each mark (the trace's `tts`, in ms). Between two marks it gives the
 * CPU time the page's main thread spent, which, unlike the wall clock, does not grow while the
 * thread waits for a core on a busy machine.
 */
export async function withCpuClock<T>(
  page: Page,
  measure: () => Promise<T>,
): Promise<{ result: T; cpu: (from: string, to: string) => number | undefined }> {
  await page.tracing.start({ categories: ['blink.user_timing'] });
  let trace: Uint8Array | undefined;
  let result: T;
  try {
    result = await measure();
  } finally {
    trace = await page.tracing.stop();
  }
  const events: { name?: string; tts?: number }[] = JSON.parse(new TextDecoder().decode(trace)).traceEvents;
  const at = (name: string) => events.find((event) => event.name === name && event.tts !== undefined)?.tts;
  return {
    result,
    cpu: (from, to) => {
      const start = at(from);
      const end = at(to);
      return start === undefined || end === undefined ? undefined : (end - start) / 1000;
    },
  };
}

export type FirstRender = { render: number; script: number | undefined; intl: number | undefined };

/** /first-render/<id> or /page-load/<id>: from the mark before the script to the form in the shadow root. */
export async function firstRender(page: Page, url: string): Promise<FirstRender> {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => performance.getEntriesByName('bench:form').length > 0, { timeout: 10_000 });
  // No named functions inside evaluate(): tsx would wrap them in a helper the page does not have.
  const [start, scriptEnd, form, intl] = await page.evaluate(() => [
    ...['bench:start', 'bench:script-end', 'bench:form'].map(
      (name) => performance.getEntriesByName(name)[0]?.startTime,
    ),
    performance.getEntriesByName('bench:intl')[0]?.duration,
  ]);
  return { render: form! - start!, script: scriptEnd === undefined ? undefined : scriptEnd - start!, intl };
}

/**
 * `laidOut`: click → result; `nextFrame`: click → the next animation frame's callback;
 * `besideNetwork`: the part of `laidOut` spent outside the request, from the resource timing of the
 * session request: click → the request's start, plus its response's end → result. What the page
 * itself costs, without the round trip through the network stack and the server.
 */
export type Submit = { laidOut: number; nextFrame: number; besideNetwork: number | undefined };

/**
 * /submit/<id>: the bank chosen, the files the script loads from beside itself (`prefetched`, the
 * script tag's second file) arrived, the page idle once (as it is while a customer types), then a
 * real mouse click on the pay button.
 * Ends when the dial code is in the shadow root with its layout done (getBoundingClientRect):
 * the mark `bench:result`.
 */
export async function submitToResult(page: Page, url: string, tag: string, prefetched: string[] = []): Promise<Submit> {
  await readyToPay(page, url, tag, prefetched);
  return clickAndTime(page, await armResult(page, tag), 'bench:result');
}

/**
 * /clock/widget: the page of `submitToResult`, made ready the same way, and then the raw fetch's
 * button clicked instead of Pay: the same endpoint, the same page in the same state, so that the
 * two differ only by what the element does between the click and the dial code.
 */
export async function rawFetchBesideElement(
  page: Page,
  url: string,
  tag: string,
  prefetched: string[] = [],
): Promise<Submit> {
  await readyToPay(page, url, tag, prefetched);
  return clickAndTime(page, await armRawFetch(page), 'bench:raw-done');
}

/** The page loaded, the form drawn, `prefetched` arrived, the bank chosen, and the page idle once. */
async function readyToPay(page: Page, url: string, tag: string, prefetched: string[]): Promise<void> {
  await onAPhone(page);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction((tag) => document.querySelector(tag)?.shadowRoot?.querySelector('form'), {}, tag);
  await page.waitForFunction(
    (files: string[]) =>
      files.every((file) =>
        performance
          .getEntriesByType('resource')
          .some((entry) => entry.name.endsWith(`/${file}`) && (entry as PerformanceResourceTiming).responseEnd > 0),
      ),
    { timeout: 10_000 },
    prefetched,
  );
  await page.evaluate(
    async (tag, bankCode) => {
      const select = document.querySelector(tag)!.shadowRoot!.querySelector('select')!;
      select.value = bankCode;
      select.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      // A customer takes seconds to fill the form: the page has been idle before Pay, which is when the
      // widget prepares its result screen (a throttled page may still be evaluating the second file).
      await new Promise((resolve) => requestIdleCallback(resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
    tag,
    CUSTOMER.bankCode,
  );
}

/** Sets the page's `benchDone` to settle once the dial code is laid out (mark `bench:result`); returns Pay's centre. */
function armResult(page: Page, tag: string): Promise<{ x: number; y: number }> {
  return page.evaluate(async (tag) => {
    const root = document.querySelector(tag)!.shadowRoot!;
    (window as unknown as { benchDone: Promise<void> }).benchDone = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const code = root.querySelector('[part~="dial-code"]');
        if (!code) return;
        observer.disconnect();
        code.getBoundingClientRect();
        performance.mark('bench:result');
        requestAnimationFrame(() => {
          performance.mark('bench:frame');
          resolve();
        });
      });
      observer.observe(root, { childList: true, subtree: true, characterData: true });
      // One harmless mutation now: the callback above runs (no dial code yet) and is compiled before
      // the click, so that its first compile (about 1 ms of CPU, 4 ms throttled) is not counted as
      // the widget's (armRawFetch does the same for the raw page's).
      root.append(document.createComment(''));
      root.lastChild!.remove();
    });
    await new Promise((resolve) => setTimeout(resolve));
    const rect = root.querySelector('button[type=submit]')!.getBoundingClientRect();
    return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
  }, tag);
}

/**
 * The submits are a phone's (a touch screen): the USSD screen a phone shows, with its dial link, not
 * a computer's QR code (whose file a computer loads after the screen shows).
 */
const onAPhone = (page: Page) => page.setViewport({ ...page.viewport()!, hasTouch: true });

/** /submit/raw: a click, then fetch and JSON.parse and nothing else; the page marks `bench:raw-done`. */
export async function rawFetch(page: Page, url: string): Promise<Submit> {
  await onAPhone(page);
  await page.goto(url, { waitUntil: 'load' });
  // Idle once, as the element's page is before Pay: clicked 50 ms after the load, the request met the browser's own
  // work after a navigation, and its round trip took several times the element's (bench/FINDINGS.md, issue 36).
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await new Promise((resolve) => requestIdleCallback(resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
  return clickAndTime(page, await armRawFetch(page), 'bench:raw-done');
}

/** Sets the page's `benchDone` to settle once the raw fetch's answer is parsed; returns its button's centre. */
function armRawFetch(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(() => {
    (window as unknown as { benchDone: Promise<void> }).benchDone = new Promise((resolve) => {
      // Told in the page's own call, as the widget's observer is in the task that lays the result
      // out: a PerformanceObserver would be a task of its own for every mark, the click's included
      // (its first run, compile and all, about 5 ms throttled, counted as the raw fetch's).
      const mark = performance.mark.bind(performance);
      performance.mark = (name, options) => {
        const entry = mark(name, options);
        if (name === 'bench:raw-done') {
          requestAnimationFrame(() => {
            mark('bench:frame');
            resolve();
          });
        }
        return entry;
      };
      performance.mark('bench:ready'); // compiled before the click
    });
    const rect = document.getElementById('pay')!.getBoundingClientRect();
    return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
  });
}

/**
 * The one way both submits are timed: a real mouse click at `box`, marked `bench:click` by a
 * capturing listener (before any of the page's own); then, once the page's `benchDone` settles
 * (it marks `bench:frame` in the animation frame after `end`), the figures from the marks and the
 * session request's resource timing.
 */
async function clickAndTime(page: Page, box: { x: number; y: number }, end: string): Promise<Submit> {
  await page.evaluate(() =>
    addEventListener('click', () => performance.mark('bench:click'), { capture: true, once: true }),
  );
  await page.mouse.click(box.x, box.y);
  await page.evaluate(() => (window as unknown as { benchDone: Promise<void> }).benchDone);
  // No named functions inside evaluate(): tsx would wrap them in a helper the page does not have.
  return page.evaluate((end) => {
    const [click, done, frame] = ['bench:click', end, 'bench:frame'].map(
      (name) => performance.getEntriesByName(name)[0]!.startTime,
    ) as [number, number, number];
    const request = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/session')) as
      PerformanceResourceTiming | undefined;
    const besideNetwork = request ? request.startTime - click + (done - request.responseEnd) : undefined;
    return { laidOut: done - click, nextFrame: frame - click, besideNetwork };
  }, end);
}

export type Heap = { jsBytes: number; embedderBytes: number | undefined };

/**
 * /heap/<id>: one element first (templates, style sheets and lazy tables are made once per page),
 * then 50 more; the growth of the heap, after a full GC each time, divided by 50.
 */
export async function heapPerElement(page: Page, url: string, tag: string, count = 50): Promise<Heap> {
  await page.goto(url, { waitUntil: 'load' });
  const cdp = await page.createCDPSession();
  type Usage = { usedSize: number; embedderHeapUsedSize?: number };
  const usage = async (): Promise<Usage> => {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')) as Usage;
  };
  const add = (n: number) =>
    page.evaluate(
      async (tag, n) => {
        const made = Array.from({ length: n }, () => {
          const element = document.createElement(tag);
          element.setAttribute('session-url', '/session');
          element.setAttribute('amount', '1500');
          return document.body.appendChild(element);
        });
        await Promise.all(made.map((element) => (element as { updateComplete?: Promise<unknown> }).updateComplete));
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        if (made.some((element) => !element.shadowRoot?.querySelector('form')))
          throw new Error(`${tag}: no form rendered`);
      },
      tag,
      n,
    );
  await add(1);
  const before = await usage();
  await add(count);
  const after = await usage();
  await cdp.detach();
  const embedder =
    after.embedderHeapUsedSize === undefined || before.embedderHeapUsedSize === undefined
      ? undefined
      : (after.embedderHeapUsedSize - before.embedderHeapUsedSize) / count;
  return { jsBytes: (after.usedSize - before.usedSize) / count, embedderBytes: embedder };
}
