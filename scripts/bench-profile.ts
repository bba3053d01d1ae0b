/**
 * Where the time goes, before anything is changed for speed: Chrome traces (the sampled CPU profile
 * and the timeline) of first render and of submit → result, in the same headless Chromium, pages
 * and fresh browser contexts as `npm run bench`, on unminified builds of the script tag, the npm
 * build and the plain-Lit form (so modules and functions keep their names).
 *
 *   node --import tsx scripts/bench-profile.ts [--loads 10] [--only first-render,submit] [--top 25] [--throttle 4]
 *
 * Run `npm run build` first (the npm build is read from dist/). Prints, per contender and window,
 * medians over the loads: the window, the timeline events inside it, sampled self time by module
 * and the top functions; writes everything to bench/.cache/profile.json. Tracing slows the page down: the
 * shares matter here, the absolute times are `npm run bench`'s.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'puppeteer-core';
import { buildForProfile, type Contender } from '../bench/lib/build.js';
import { firstRender, inFreshThrottledContext, launchChromium, submitToResult } from '../bench/lib/browser.js';
import { cacheDir } from '../bench/lib/paths.js';
import { startServer } from '../bench/lib/server.js';
import { medianOf, moduleMap, summarize, type TraceSummary } from '../bench/lib/trace.js';

const { values: args } = parseArgs({
  options: {
    loads: { type: 'string', default: '10' },
    only: { type: 'string', default: 'first-render,submit' },
    top: { type: 'string', default: '25' },
    /** The page's CPU slowed down this many times, as `npm run bench`'s throttled rows (1: not at all). */
    throttle: { type: 'string', default: '1' },
  },
});
const THROTTLE = Math.max(1, Number(args.throttle));
const LOADS = Math.max(1, Number(args.loads));
const TOP = Math.max(1, Number(args.top));
const ONLY = new Set(args.only.split(','));

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
  'disabled-by-default-v8.cpu_profiler.hires',
];

const contenders = await buildForProfile();
const server = await startServer(contenders);
const browser = await launchChromium();

/**
 * The module of a sampled line: in the contender's script (served, or inline in /first-render/,
 * where its lines start further down the page), from the bundle's module comments.
 */
async function moduleOf(contender: Contender): Promise<(url: string, line: number) => string> {
  const map = moduleMap(contender.code);
  const page = await (await fetch(`${server.origin}/first-render/${contender.id}`)).text();
  const inlineOffset = page.slice(0, page.indexOf(contender.code)).split('\n').length - 1;
  return (url, line) => {
    if (url.endsWith(`/js/${contender.id}.js`)) return map(line);
    if (url.endsWith(`/first-render/${contender.id}`))
      return line >= inlineOffset ? map(line - inlineOffset) : '(page)';
    return url.replace(server.origin, '');
  };
}

async function traced(
  page: Page,
  run: () => Promise<unknown>,
): Promise<{ traceEvents: Parameters<typeof summarize>[0] }> {
  await page.tracing.start({ categories: CATEGORIES });
  await run();
  const buffer = await page.tracing.stop();
  return JSON.parse(new TextDecoder().decode(buffer));
}

/** "<contender> <figure>" → one summary per traced load. */
const collected: Record<string, TraceSummary[]> = {};
let incomplete = 0;
/** Adds one load's summary; a trace that lost one of the marks (it happens, rarely) is left out and counted. */
function collect(id: string, figure: string, summary: () => TraceSummary): void {
  try {
    (collected[`${id} ${figure}`] ??= []).push(summary());
  } catch {
    incomplete += 1;
  }
}

try {
  for (let round = 0; round < LOADS; round += 1) {
    process.stderr.write(`bench-profile: round ${round + 1}/${LOADS}\n`);
    for (const contender of contenders) {
      const url = (path: string) => `${server.origin}${path}/${contender.id}`;
      const modules = await moduleOf(contender);
      if (ONLY.has('first-render')) {
        const trace = await inFreshThrottledContext(browser, THROTTLE, (page) =>
          traced(page, () => firstRender(page, url('/first-render'))),
        );
        collect(contender.id, 'script (compile, top-level run, define)', () =>
          summarize(trace.traceEvents, 'bench:start', 'bench:script-end', modules),
        );
        collect(contender.id, 'first update (script end → form)', () =>
          summarize(trace.traceEvents, 'bench:script-end', 'bench:form', modules),
        );
      }
      if (ONLY.has('submit')) {
        const trace = await inFreshThrottledContext(browser, THROTTLE, (page) =>
          traced(page, () => submitToResult(page, url('/submit'), contender.tag, Object.keys(contender.beside ?? {}))),
        );
        collect(contender.id, 'submit → dial code laid out', () =>
          summarize(trace.traceEvents, 'bench:click', 'bench:result', modules),
        );
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}

const ms = (n: number) => n.toFixed(2).padStart(7);
const report: Record<string, TraceSummary> = {};
for (const [key, summaries] of Object.entries(collected)) {
  const s = medianOf(summaries);
  report[key] = s;
  console.log(`\n━━ ${key}: window ${s.window.toFixed(2)} ms, medians of ${summaries.length} traced loads`);
  console.log('  timeline (inclusive, nested events overlap):');
  for (const [name, { ms: t, count }] of Object.entries(s.timeline).sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`    ${ms(t)} ms  ×${count.toFixed(1).padEnd(5)} ${name}`);
  }
  console.log('  sampled self time by module:');
  for (const [name, t] of Object.entries(s.modules).sort((a, b) => b[1] - a[1]))
    console.log(`    ${ms(t)} ms  ${name}`);
  console.log(`  top ${TOP} functions by sampled self time:`);
  for (const [name, t] of Object.entries(s.functions)
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP))
    console.log(`    ${ms(t)} ms  ${name}`);
}
if (incomplete) console.log(`\n${incomplete} traced loads left out: a mark was missing from the trace`);
writeFileSync(join(cacheDir, 'profile.json'), JSON.stringify({ loads: LOADS, report }, null, 2));
console.log(`\nAll figures: ${join(cacheDir, 'profile.json')}`);
