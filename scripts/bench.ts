/**
 * `npm run bench`: what <pay-widget> costs a merchant's page, measured in one run against the same
 * form as a plain Lit element and hand-written without a framework (bench/contenders/), and printed
 * as one table of medians with interquartile ranges; every sample goes to bench/results.json.
 *
 *   node --import tsx scripts/bench.ts [--loads 25] [--submits 25] [--heap-samples 5] [--no-build] [--no-server]
 *                                      [--only first-render,page-load,submit,submit-clock,heap,throttled]
 *                                      [--help]
 *
 * 1. `npm run build` (skip with --no-build), then the contenders' scripts (bench/lib/build.ts).
 * 2. Sizes: the script tag and the npm entry, gzip -9 and brotli -11, beside @paystack/inline-js and
 *    @adyen/adyen-web from `npm pack` (cached in bench/.cache; skipped, and said so, offline).
 * 3. In the system Chromium, headless, no network but 127.0.0.1, a fresh browser context per sample,
 *    the contenders alternated round by round (so drift, GC and CPU contention hit them alike):
 *    - first render: the mark just before the inline script → the form in the shadow root, and the
 *      part of it until the script's last statement (compile, top-level run, define); the page's
 *      first Intl.NumberFormat, which loads ICU data for every contender alike, is made and timed
 *      before the mark (bench/lib/server.ts);
 *    - page load: the mark just before `<script src>` → the form;
 *    - - submit (on a touch screen: a phone's USSD screen): a mouse click on pay → the dial code laid out, against a
 *      session endpoint on
 *      127.0.0.1 that answers at once, the script tag's second file already fetched (the page
 *      prefetches it when idle); beside a raw `fetch` + `JSON.parse` of the same request;
 *      and the part of it beside the network (the session request's resource timing: click → its
 *      start, its response's end → the result);
 *    - submit by the clock, as issue 36 asks: the same click → dial code laid out, untraced (a trace's own
 *      work is on the same cores), on the script tag's page as the demo serves it (its files at /pay-widget/,
 *      gzipped), each sample against a raw fetch clicked on that same page, made ready the same way, to the
 *      same endpoint, the two alternated round by round; median, interquartile range and 90th percentile;
 *    - for each of these also the main thread's CPU time between the same two marks (from a trace
 *      of the marks): on a busy machine the wall clock mostly measures waiting for a core;
 *    - JS heap per element: 50 elements on a page, after a full GC (`Runtime.getHeapUsage`);
 *    - page load (script tag vs plain Lit) and submit (script tag vs raw fetch) again with the
 *      page's CPU throttled 4× (CDP `Emulation.setCPUThrottlingRate`), as on a low-end Android phone.
 * 4. The session handler's throughput and latency with memory, Redis, PostgreSQL and SQLite stores, and its
 *    Redis round trips per payment: scripts/bench-server.ts, run as it is; then the reconciler's
 *    throughput on 10,000 due entries per store: scripts/bench-reconciler.ts (both skipped with
 *    --no-server).
 *
 * A benchmark, not a test: it asserts nothing about time. It fails only when it cannot measure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'puppeteer-core';
import { buildContenders } from '../bench/lib/build.js';
import {
  BENCH_CHROMIUM_FLAGS,
  firstRender,
  heapPerElement,
  inFreshContext,
  inFreshThrottledContext,
  launchChromium,
  rawFetch,
  rawFetchBesideElement,
  submitToResult,
  type Submit,
  withCpuClock,
} from '../bench/lib/browser.js';
import { root } from '../bench/lib/paths.js';
import { startServer, type BenchServer } from '../bench/lib/server.js';
import { otherSizes, ownSizes, sizeOfCode, type Size } from '../bench/lib/sizes.js';
import { percentile, spread, type Spread } from '../bench/lib/stats.js';
import { printTable, type Cell } from '../bench/lib/table.js';
import { parseServerBench, type ServerFigures } from '../bench/lib/server-bench.js';
import { ONE_PAYMENT_BUDGET_BYTES, SCRIPT_TAG_BUDGET_BYTES } from '../vite.config.js';

const { values: args } = parseArgs({
  options: {
    loads: { type: 'string', default: '25' },
    submits: { type: 'string', default: '25' },
    'heap-samples': { type: 'string', default: '5' },
    only: { type: 'string', default: 'first-render,page-load,submit,submit-clock,heap,throttled' },
    'no-build': { type: 'boolean', default: false },
    'no-server': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(`npm run bench -- [options]
  --loads N          page loads and first renders per contender (default 25)
  --submits N        submits per contender (default 25)
  --heap-samples N   heap samples per contender (default 5)
  --only LIST        browser figures to take, of first-render,page-load,submit,submit-clock,heap,throttled
                     (default all)
  --no-build         skip npm run build (use dist/ as it is)
  --no-server        skip the server benches (scripts/bench-server.ts: the session handler on memory,
                     Redis, PostgreSQL and SQLite; scripts/bench-reconciler.ts: the reconciler's sweep)
  --help             this text
Each server bench also runs alone: node --import tsx scripts/bench-server.ts [--requests 1000] [--concurrency 8],
node --import tsx scripts/bench-reconciler.ts [--entries 10000] [--batch 50].`);
  process.exit(0);
}
const LOADS = Math.max(1, Number(args.loads));
const SUBMITS = Math.max(1, Number(args.submits));
const HEAP_SAMPLES = Math.max(1, Number(args['heap-samples']));
const ROUNDS = Math.max(LOADS, SUBMITS, HEAP_SAMPLES);
/** Which browser figures to take (a partial run, e.g. while profiling; the table shows what was taken). */
const ONLY = new Set(args.only.split(','));

const log = (line: string) => process.stderr.write(`${line}\n`);

if (!args['no-build']) {
  log('bench: npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

log('bench: building the contenders');
// Vite's builds set NODE_ENV=production in this process; the server benches are not production
// (the sandbox refuses to start there), so they get the environment the bench was started with.
const startEnvironment = { ...process.env };
const contenders = await buildContenders();
const own = ownSizes();
log('bench: sizes of @paystack/inline-js and @adyen/adyen-web (npm pack, cached in bench/.cache)');
const others = otherSizes();

type Samples = Record<string, number[]>;
const samples = {
  firstRender: {} as Samples,
  firstRenderCpu: {} as Samples,
  scriptRunCpu: {} as Samples,
  pageLoadCpu: {} as Samples,
  submitCpu: {} as Samples,
  scriptRun: {} as Samples,
  intl: {} as Samples,
  pageLoad: {} as Samples,
  submit: {} as Samples,
  submitFrame: {} as Samples,
  submitBesideNetwork: {} as Samples,
  submitClock: {} as Samples,
  submitClockBesideNetwork: {} as Samples,
  heapJs: {} as Samples,
  heapEmbedder: {} as Samples,
  pageLoadThrottled: {} as Samples,
  submitThrottled: {} as Samples,
};

/** The CPU slow-down of the throttled rows: a low-end Android phone, as Lighthouse's mobile preset has it. */
const THROTTLE = 4;
const push = (into: Samples, id: string, value: number | undefined) => {
  if (value !== undefined) (into[id] ??= []).push(value);
};

type Task = { figure: string; name: string; rounds: number; run: (browser: Browser) => Promise<void> };

function tasks(server: BenchServer): Task[] {
  const url = (path: string) => `${server.origin}${path}`;
  const list: Task[] = [];
  for (const c of contenders) {
    list.push({
      figure: 'first-render',
      name: `first render ${c.id}`,
      rounds: LOADS,
      run: (browser) =>
        inFreshContext(browser, async (page) => {
          const { result, cpu } = await withCpuClock(page, () => firstRender(page, url(`/first-render/${c.id}`)));
          push(samples.firstRender, c.id, result.render);
          push(samples.scriptRun, c.id, result.script);
          push(samples.intl, c.id, result.intl);
          push(samples.firstRenderCpu, c.id, cpu('bench:start', 'bench:form'));
          push(samples.scriptRunCpu, c.id, cpu('bench:start', 'bench:script-end'));
        }),
    });
    list.push({
      figure: 'page-load',
      name: `page load ${c.id}`,
      rounds: LOADS,
      run: (browser) =>
        inFreshContext(browser, async (page) => {
          const { result, cpu } = await withCpuClock(page, () => firstRender(page, url(`/page-load/${c.id}`)));
          push(samples.pageLoad, c.id, result.render);
          push(samples.pageLoadCpu, c.id, cpu('bench:start', 'bench:form'));
        }),
    });
    list.push({
      figure: 'submit',
      name: `submit ${c.id}`,
      rounds: SUBMITS,
      run: (browser) =>
        inFreshContext(browser, async (page) => {
          const { result, cpu } = await withCpuClock(page, () =>
            submitToResult(page, url(`/submit/${c.id}`), c.tag, Object.keys(c.beside ?? {})),
          );
          push(samples.submit, c.id, result.laidOut);
          push(samples.submitFrame, c.id, result.nextFrame);
          push(samples.submitBesideNetwork, c.id, result.besideNetwork);
          push(samples.submitCpu, c.id, cpu('bench:click', 'bench:result'));
        }),
    });
    list.push({
      figure: 'heap',
      name: `heap ${c.id}`,
      rounds: HEAP_SAMPLES,
      run: (browser) =>
        inFreshContext(browser, async (page) => {
          const { jsBytes, embedderBytes } = await heapPerElement(page, url(`/heap/${c.id}`), c.tag);
          push(samples.heapJs, c.id, jsBytes);
          push(samples.heapEmbedder, c.id, embedderBytes);
        }),
    });
  }
  list.push(...throttledTasks(url));
  list.push(...clockTasks(url));
  list.push({
    figure: 'submit',
    name: 'submit raw fetch',
    rounds: SUBMITS,
    run: (browser) =>
      inFreshContext(browser, async (page) => {
        const { result, cpu } = await withCpuClock(page, () => rawFetch(page, url('/submit/raw')));
        push(samples.submit, 'raw', result.laidOut);
        push(samples.submitFrame, 'raw', result.nextFrame);
        push(samples.submitBesideNetwork, 'raw', result.besideNetwork);
        push(samples.submitCpu, 'raw', cpu('bench:click', 'bench:raw-done'));
      }),
  });
  return list.filter((task) => ONLY.has(task.figure));
}

/** Page load (script tag vs plain Lit) and submit (script tag and the same-form contenders vs raw fetch) with the CPU throttled. */
function throttledTasks(url: (path: string) => string): Task[] {
  const pageLoad = (c: (typeof contenders)[number]): Task => ({
    figure: 'throttled',
    name: `page load ${c.id}, CPU ${THROTTLE}× throttled`,
    rounds: LOADS,
    run: (browser) =>
      inFreshThrottledContext(browser, THROTTLE, async (page) => {
        push(samples.pageLoadThrottled, c.id, (await firstRender(page, url(`/page-load/${c.id}`))).render);
      }),
  });
  // The same-form contenders too: what the result screen costs a slow phone when written by hand.
  const submit = (c: (typeof contenders)[number]): Task => ({
    figure: 'throttled',
    name: `submit ${c.id}, CPU ${THROTTLE}× throttled`,
    rounds: SUBMITS,
    run: (browser) =>
      inFreshThrottledContext(browser, THROTTLE, async (page) => {
        const result = await submitToResult(page, url(`/submit/${c.id}`), c.tag, Object.keys(c.beside ?? {}));
        push(samples.submitThrottled, c.id, result.laidOut);
      }),
  });
  return [
    ...contenders.filter((c) => c.id === 'widget' || c.id === 'lit').map(pageLoad),
    ...contenders.filter((c) => c.id !== 'widget-npm').map(submit),
    {
      figure: 'throttled',
      name: `submit raw fetch, CPU ${THROTTLE}× throttled`,
      rounds: SUBMITS,
      run: (browser) =>
        inFreshThrottledContext(browser, THROTTLE, async (page) => {
          push(samples.submitThrottled, 'raw', (await rawFetch(page, url('/submit/raw'))).laidOut);
        }),
    },
  ];
}

/**
 * Submit by the clock: the script tag's page as the demo serves it, Pay or the raw fetch's button beside it
 * clicked, one each per round; untraced, so the wall clock holds nothing but the page's own work and waits.
 */
function clockTasks(url: (path: string) => string): Task[] {
  const widget = contenders.find((c) => c.id === 'widget')!;
  const prefetched = Object.keys(widget.beside ?? {});
  const clock = (id: 'widget' | 'raw', measure: (page: Page) => Promise<Submit>): Task => ({
    figure: 'submit-clock',
    name: `submit by the clock, ${id === 'raw' ? 'raw fetch' : 'script tag'}`,
    rounds: SUBMITS,
    run: (browser) =>
      inFreshContext(browser, async (page) => {
        const { laidOut, besideNetwork } = await measure(page);
        push(samples.submitClock, id, laidOut);
        push(samples.submitClockBesideNetwork, id, besideNetwork);
      }),
  });
  return [
    clock('widget', (page) => submitToResult(page, url('/clock/widget'), widget.tag, prefetched)),
    clock('raw', (page) => rawFetchBesideElement(page, url('/clock/widget'), widget.tag, prefetched)),
  ];
}

const loadAverage = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(' ');
const server = await startServer(contenders);
const browser = await launchChromium();
const chromium = await browser.version();
try {
  const list = tasks(server);
  log(`bench: ${chromium}; warming up`);
  for (const task of list) await task.run(browser); // not counted: the disk cache, the first process of each kind
  for (const key of Object.keys(samples)) samples[key as keyof typeof samples] = {};
  for (let round = 0; round < ROUNDS; round += 1) {
    log(`bench: round ${round + 1}/${ROUNDS}`);
    // Each round starts one task further along, so no contender always runs right after another.
    const order = list.map((_, i) => list[(i + round) % list.length]!);
    for (const task of order) {
      if (round >= task.rounds) continue;
      try {
        await task.run(browser);
      } catch (error) {
        throw new Error(`${task.name}, round ${round + 1}: ${(error as Error).message}`);
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}

const sessionRequests = server.sessionRequests();
const mismatched = sessionRequests.filter(
  (request) => JSON.stringify(request) !== JSON.stringify(sessionRequests.at(-1)),
);

let serverBench: { output: string; figures: ServerFigures | undefined } | undefined;
let reconcilerBench: { output: string } | undefined;
if (!args['no-server']) {
  log('bench: the session handler (scripts/bench-server.ts)');
  serverBench = await runServerBench('bench-server.ts');
  log('bench: the reconciler (scripts/bench-reconciler.ts)');
  reconcilerBench = { output: (await runServerBench('bench-reconciler.ts')).output };
}

// ─── The table ──────────────────────────────────────────────────────────────────────────────────

const ids = ['widget', 'widget-npm', 'lit', 'vanilla'] as const;
const stats = (into: Samples) => Object.fromEntries(Object.entries(into).map(([id, values]) => [id, spread(values)]));
const figures = {
  firstRender: stats(samples.firstRender),
  firstRenderCpu: stats(samples.firstRenderCpu),
  scriptRunCpu: stats(samples.scriptRunCpu),
  pageLoadCpu: stats(samples.pageLoadCpu),
  submitCpu: stats(samples.submitCpu),
  scriptRun: stats(samples.scriptRun),
  intl: stats(samples.intl),
  pageLoad: stats(samples.pageLoad),
  submit: stats(samples.submit),
  submitFrame: stats(samples.submitFrame),
  submitBesideNetwork: stats(samples.submitBesideNetwork),
  submitClock: stats(samples.submitClock),
  submitClockBesideNetwork: stats(samples.submitClockBesideNetwork),
  heapJs: stats(samples.heapJs),
  heapEmbedder: stats(samples.heapEmbedder),
  pageLoadThrottled: stats(samples.pageLoadThrottled),
  submitThrottled: stats(samples.submitThrottled),
};

const ms = (s: Spread | undefined): Cell => (s ? `${s.median.toFixed(1)} (${s.q1.toFixed(1)}–${s.q3.toFixed(1)})` : '');
const p90 = (values: number[] | undefined): Cell => (values ? percentile(values, 0.9).toFixed(1) : '');
const kib = (s: Spread | undefined): Cell =>
  s ? `${(s.median / 1024).toFixed(1)} (${(s.q1 / 1024).toFixed(1)}–${(s.q3 / 1024).toFixed(1)})` : '';
const timesLit = (of: Record<string, Spread>) =>
  of.widget && of.lit ? `${(of.widget.median / of.lit.median).toFixed(2)}× Lit` : '';
const overRaw = (of: Record<string, Spread>) =>
  of.widget && of.raw ? `${(of.widget.median - of.raw.median).toFixed(1).replace(/^(?!-)/, '+')} ms over raw` : '';
const bytes = (n: number) => n.toLocaleString('en');
const compressed = (size: Size | undefined, key: 'gzip' | 'brotli') => (size ? bytes(size[key]) : '');
const contenderSize = (id: string) => sizeOfCode(contenders.find((c) => c.id === id)!.code);
const npmIndex = own.npmEntries.index;

const rows: Cell[][] = [
  [
    'first render: script evaluation → form in the shadow root, ms',
    ...ids.map((id) => ms(figures.firstRender[id])),
    '',
    timesLit(figures.firstRender),
  ],
  [
    '  the same, main-thread CPU time, ms',
    ...ids.map((id) => ms(figures.firstRenderCpu[id])),
    '',
    timesLit(figures.firstRenderCpu),
  ],
  [
    '  of which compile + top-level run + define, ms',
    ...ids.map((id) => ms(figures.scriptRun[id])),
    '',
    timesLit(figures.scriptRun),
  ],
  [
    '  of which compile + top-level run + define, CPU, ms',
    ...ids.map((id) => ms(figures.scriptRunCpu[id])),
    '',
    timesLit(figures.scriptRunCpu),
  ],
  ['  not counted, before the mark: first Intl.NumberFormat, ms', ...ids.map((id) => ms(figures.intl[id])), '', ''],
  [
    'page load: mark before <script src> → form, ms',
    ...ids.map((id) => ms(figures.pageLoad[id])),
    '',
    timesLit(figures.pageLoad),
  ],
  [
    '  the same, main-thread CPU time, ms',
    ...ids.map((id) => ms(figures.pageLoadCpu[id])),
    '',
    timesLit(figures.pageLoadCpu),
  ],
  [
    'submit: click → dial code laid out, ms',
    ...ids.map((id) => ms(figures.submit[id])),
    figures.submit.raw ? `raw fetch + JSON.parse: ${ms(figures.submit.raw)}` : '',
    overRaw(figures.submit),
  ],
  [
    '  the same, main-thread CPU time, ms',
    ...ids.map((id) => ms(figures.submitCpu[id])),
    figures.submitCpu.raw ? `raw fetch + JSON.parse: ${ms(figures.submitCpu.raw)}` : '',
    overRaw(figures.submitCpu),
  ],
  [
    '  of which beside the network: click → request sent, answer → result, ms',
    ...ids.map((id) => ms(figures.submitBesideNetwork[id])),
    figures.submitBesideNetwork.raw ? `raw: ${ms(figures.submitBesideNetwork.raw)}` : '',
    overRaw(figures.submitBesideNetwork),
  ],
  [
    'submit by the clock: same page, same endpoint as the raw fetch, untraced, ms',
    ms(figures.submitClock.widget),
    '',
    '',
    '',
    figures.submitClock.raw ? `raw fetch + JSON.parse: ${ms(figures.submitClock.raw)}` : '',
    overRaw(figures.submitClock),
  ],
  [
    '  90th percentile, ms',
    p90(samples.submitClock.widget),
    '',
    '',
    '',
    samples.submitClock.raw ? `raw: ${p90(samples.submitClock.raw)}` : '',
    samples.submitClock.widget && samples.submitClock.raw
      ? `${(percentile(samples.submitClock.widget, 0.9) - percentile(samples.submitClock.raw, 0.9)).toFixed(1)} ms`
      : '',
  ],
  [
    '  of which beside the network: click → request sent, answer → result, ms',
    ms(figures.submitClockBesideNetwork.widget),
    '',
    '',
    '',
    figures.submitClockBesideNetwork.raw ? `raw: ${ms(figures.submitClockBesideNetwork.raw)}` : '',
    overRaw(figures.submitClockBesideNetwork),
  ],
  [
    '  click → next animation frame, ms',
    ...ids.map((id) => ms(figures.submitFrame[id])),
    figures.submitFrame.raw ? `raw: ${ms(figures.submitFrame.raw)}` : '',
    '',
  ],
  [
    `page load, CPU ${THROTTLE}× throttled, ms`,
    ...ids.map((id) => ms(figures.pageLoadThrottled[id])),
    '',
    timesLit(figures.pageLoadThrottled),
  ],
  [
    `submit, CPU ${THROTTLE}× throttled, ms`,
    ...ids.map((id) => ms(figures.submitThrottled[id])),
    figures.submitThrottled.raw ? `raw fetch + JSON.parse: ${ms(figures.submitThrottled.raw)}` : '',
    overRaw(figures.submitThrottled),
  ],
  ['JS heap per element, 50 on a page, KiB', ...ids.map((id) => kib(figures.heapJs[id])), '', ''],
  [
    'size, gzip -9, B',
    scriptTagGzip(),
    `${compressed(npmIndex, 'gzip')} (entry, Lit external); ${bytes(contenderSize('widget-npm').gzip)} with Lit`,
    bytes(contenderSize('lit').gzip),
    bytes(contenderSize('vanilla').gzip),
    '',
    '',
  ],
  [
    'size, brotli -11, B',
    `${compressed(own.scriptTag, 'brotli')} + ${compressed(own.afterSubmit, 'brotli')}`,
    `${compressed(npmIndex, 'brotli')} (entry, Lit external); ${bytes(contenderSize('widget-npm').brotli)} with Lit`,
    bytes(contenderSize('lit').brotli),
    bytes(contenderSize('vanilla').brotli),
    '',
    '',
  ],
  ...others.map((other): Cell[] => [
    `  for scale: ${other.name}${other.version ? ` ${other.version}` : ''}`,
    '',
    '',
    '',
    '',
    other.size ? `gzip ${bytes(other.size.gzip)}, brotli ${bytes(other.size.brotli)}` : `skipped: ${other.skipped}`,
    '',
  ]),
  ...serverRows(),
];

console.log(
  `\n${chromium} (headless), ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, node ${process.version}, load average ${loadAverage}`,
);
console.log(
  `median (interquartile range); ${LOADS} loads, ${SUBMITS} submits, ${HEAP_SAMPLES} heap samples per contender, each in a fresh browser context\n`,
);
const measured = rows.filter((row) => row.slice(1).some((cell) => cell !== ''));
printTable(
  [
    'figure',
    '<pay-widget> script tag',
    '<pay-widget> npm build',
    'same form, plain Lit',
    'same form, hand-written',
    'reference',
    'widget vs',
  ],
  measured,
);
if (mismatched.length > 0)
  console.log(
    `\nnote: ${mismatched.length} session requests differed from the last one (the contenders did not all send the same body)`,
  );
for (const other of others.filter((o) => o.size)) console.log(`${other.name}: ${other.what}`);

writeFileSync(
  join(root, 'bench', 'results.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: {
        loadAverageAtStart: os.loadavg(),
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model.trim(),
        node: process.version,
        chromium,
        flags: BENCH_CHROMIUM_FLAGS,
      },
      settings: { loads: LOADS, submits: SUBMITS, heapSamples: HEAP_SAMPLES, elementsPerHeapSample: 50 },
      contenders: contenders.map(({ id, label, tag }) => ({ id, label, tag })),
      figures,
      samples,
      sizes: {
        scriptTag: own.scriptTag,
        afterSubmit: own.afterSubmit,
        scriptTagBudgetGzip: SCRIPT_TAG_BUDGET_BYTES,
        onePaymentBudgetGzip: ONE_PAYMENT_BUDGET_BYTES,
        npmEntries: own.npmEntries,
        contenders: Object.fromEntries(contenders.map((c) => [c.id, sizeOfCode(c.code)])),
        others,
      },
      sessionRequests: { count: sessionRequests.length, differing: mismatched.length, example: sessionRequests.at(-1) },
      server: serverBench ?? { skipped: '--no-server' },
      reconciler: reconcilerBench ?? { skipped: '--no-server' },
    },
    null,
    2,
  )}\n`,
);
console.log('\nEvery sample: bench/results.json');

/** The script tag's two files, gzip, each beside its budget: the first alone, and both (one English USSD payment). */
function scriptTagGzip(): string {
  const first = own.scriptTag.gzip;
  const total = first + own.afterSubmit.gzip;
  const within = (size: number, budget: number) => `${size > budget ? 'OVER' : 'within'} ${bytes(budget)}`;
  return `${bytes(first)} + ${bytes(own.afterSubmit.gzip)} = ${bytes(total)} (first ${within(first, SCRIPT_TAG_BUDGET_BYTES)}; both ${within(total, ONE_PAYMENT_BUDGET_BYTES)})`;
}

function serverRows(): Cell[][] {
  if (!serverBench) return [['session handler (scripts/bench-server.ts)', '', '', '', '', 'skipped (--no-server)', '']];
  const f = serverBench.figures;
  if (!f)
    return [['session handler (scripts/bench-server.ts)', '', '', '', '', 'its output changed shape; see above', '']];
  return f.rows.map((row): Cell[] => [
    `session handler, ${row.phase}`,
    '',
    '',
    '',
    '',
    `${row.handler.rps} req/s, p50 ${row.handler.p50} ms, p99 ${row.handler.p99} ms`,
    row.direct ? `sandbox directly: ${row.direct.rps} req/s, p50 ${row.direct.p50} ms` : '',
  ]);
}

/** A server bench script as it is, its output passed through; the session handler's figures read from it when it keeps its shape. */
function runServerBench(
  script: 'bench-server.ts' | 'bench-reconciler.ts',
): Promise<{ output: string; figures: ServerFigures | undefined }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', script)], {
      cwd: root,
      env: startEnvironment,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) output += `\n(exited with ${code})`;
      resolve({ output, figures: parseServerBench(output) });
    });
  });
}
