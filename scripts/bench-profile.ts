/**
 * Where the time goes, before anything is changed for speed: Chrome traces (the sampled CPU profile
 * and the timeline) of first render and of submit → result, in the same headless Chromium, pages
 * and fresh browser contexts as `npm run bench`, on unminified builds of the script tag, the npm
 * build and the plain-Lit form (so modules and functions keep their names).
 *
 *   node --import tsx scripts/bench-profile.ts [--loads 10] [--only first-render,submit] [--top 25]
 *
 * Run `npm run build` first (the npm build is read from dist/). Prints, per contender and figure,
 * averages per load: the window, the timeline events inside it, sampled self time by module and the
 * top functions; writes everything to bench/.cache/profile.json. Tracing slows the page down: the
 * shares matter here, the absolute times are `npm run bench`'s.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'puppeteer-core';
import { buildForProfile, type Contender } from '../bench/lib/build.js';
import { firstRender, inFreshContext, launchChromium, submitToResult } from '../bench/lib/browser.js';
import { cacheDir } from '../bench/lib/paths.js';
import { startServer } from '../bench/lib/server.js';
import { average, moduleMap, summarize, type TraceSummary } from '../bench/lib/trace.js';

const { values: args } = parseArgs({
  options: {
    loads: { type: 'string', default: '10' },
    only: { type: 'string', default: 'first-render,submit' },
    top: { type: 'string', default: '25' },
  },
});
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

/** The module of a sampled line: the contender's script by its URL, anything else by its URL. */
function moduleOf(contender: Contender): (url: string, line: number) => string {
  const map = moduleMap(contender.code);
  return (url, line) => (url.endsWith(`/js/${contender.id}.js`) ? map(line) : url.replace(server.origin, ''));
}

async function traced(page: Page, run: () => Promise<unknown>): Promise<{ traceEvents: Parameters<typeof summarize>[0] }> {
  await page.tracing.start({ categories: CATEGORIES });
  await run();
  const buffer = await page.tracing.stop();
  return JSON.parse(new TextDecoder().decode(buffer));
}

/** "<contender> <figure>" → one summary per traced load. */
const collected: Record<string, TraceSummary[]> = {};
const collect = (id: string, figure: string, summary: TraceSummary) => (collected[`${id} ${figure}`] ??= []).push(summary);

try {
  for (let round = 0; round < LOADS; round += 1) {
    process.stderr.write(`bench-profile: round ${round + 1}/${LOADS}\n`);
    for (const contender of contenders) {
      const url = (path: string) => `${server.origin}${path}/${contender.id}`;
      if (ONLY.has('first-render')) {
        const trace = await inFreshContext(browser, (page) => traced(page, () => firstRender(page, url('/page-load'))));
        collect(contender.id, 'first-render', summarize(trace.traceEvents, 'bench:start', 'bench:form', moduleOf(contender)));
      }
      if (ONLY.has('submit')) {
        const trace = await inFreshContext(browser, (page) => traced(page, () => submitToResult(page, url('/submit'), contender.tag)));
        collect(contender.id, 'submit', summarize(trace.traceEvents, 'bench:click', 'bench:result', moduleOf(contender)));
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
  const s = average(summaries);
  report[key] = s;
  console.log(`\n━━ ${key}: window ${s.window.toFixed(2)} ms on average over ${summaries.length} traced loads`);
  console.log('  timeline (inclusive, nested events overlap):');
  for (const [name, { ms: t, count }] of Object.entries(s.timeline).sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`    ${ms(t)} ms  ×${count.toFixed(1).padEnd(5)} ${name}`);
  }
  console.log('  sampled self time by module:');
  for (const [name, t] of Object.entries(s.modules).sort((a, b) => b[1] - a[1])) console.log(`    ${ms(t)} ms  ${name}`);
  console.log(`  top ${TOP} functions by sampled self time:`);
  for (const [name, t] of Object.entries(s.functions).sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`    ${ms(t)} ms  ${name}`);
}
writeFileSync(join(cacheDir, 'profile.json'), JSON.stringify({ loads: LOADS, report }, null, 2));
console.log(`\nAll figures: ${join(cacheDir, 'profile.json')}`);
