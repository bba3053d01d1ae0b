/**
 * Two or more script-tag builds compared on the submit, paired: each round submits once with every
 * build and once with the raw fetch, in fresh browser contexts, unthrottled (the main thread's CPU,
 * from the trace's clock) and with the CPU throttled as `npm run bench`'s throttled rows. This
 * machine's speed drifts by a third over minutes, and `npm run bench`'s figure with it; builds
 * measured in the same rounds drift together, so their difference is what a change did.
 *
 *   npm run build && cp -r dist /tmp/before      # then make the change
 *   npm run build && cp -r dist /tmp/after
 *   node --import tsx scripts/bench-ab.ts /tmp/before /tmp/after [--submits 20] [--throttle 4]
 *
 * Each folder holds a script-tag build: pay-widget.iife.js and the second file beside it.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  inFreshContext,
  inFreshThrottledContext,
  launchChromium,
  rawFetch,
  submitToResult,
  withCpuClock,
} from '../bench/lib/browser.js';
import { startServer, type BenchServer } from '../bench/lib/server.js';
import { spread } from '../bench/lib/stats.js';
import { fileBesideScript } from '../src/element/loading/later-files.js';

const AFTER_SUBMIT_FILE = fileBesideScript('after-submit');

const { values: args, positionals: folders } = parseArgs({
  allowPositionals: true,
  options: { submits: { type: 'string', default: '20' }, throttle: { type: 'string', default: '4' } },
});
if (folders.length < 2)
  throw new Error('bench-ab: give two or more folders holding a script-tag build (see the comment at the top)');
const SUBMITS = Math.max(1, Number(args.submits));
const THROTTLE = Math.max(1, Number(args.throttle));

// One server per build: each serves its own second file under the same name.
const servers: BenchServer[] = [];
for (const folder of folders) {
  const read = (file: string) => readFileSync(join(folder, file), 'utf8');
  servers.push(
    await startServer([
      {
        id: 'widget',
        label: folder,
        tag: 'pay-widget',
        code: read('pay-widget.iife.js'),
        beside: { [AFTER_SUBMIT_FILE]: read(AFTER_SUBMIT_FILE) },
      },
    ]),
  );
}
const browser = await launchChromium();
const samples: Record<string, { cpu: number[]; throttled: number[] }> = {};
const of = (name: string) => (samples[name] ??= { cpu: [], throttled: [] });

try {
  for (let round = 0; round < SUBMITS; round += 1) {
    process.stderr.write(`bench-ab: round ${round + 1}/${SUBMITS}\n`);
    for (const [index, server] of servers.entries()) {
      const url = `${server.origin}/submit/widget`;
      await inFreshContext(browser, async (page) => {
        const { cpu } = await withCpuClock(page, () => submitToResult(page, url, 'pay-widget', [AFTER_SUBMIT_FILE]));
        of(folders[index]!).cpu.push(cpu('bench:click', 'bench:result')!);
      });
      await inFreshThrottledContext(browser, THROTTLE, async (page) => {
        of(folders[index]!).throttled.push(
          (await submitToResult(page, url, 'pay-widget', [AFTER_SUBMIT_FILE])).laidOut,
        );
      });
    }
    const raw = `${servers[0]!.origin}/submit/raw`;
    await inFreshContext(browser, async (page) => {
      const { cpu } = await withCpuClock(page, () => rawFetch(page, raw));
      of('raw fetch').cpu.push(cpu('bench:click', 'bench:raw-done')!);
    });
    await inFreshThrottledContext(browser, THROTTLE, async (page) => {
      of('raw fetch').throttled.push((await rawFetch(page, raw)).laidOut);
    });
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((server) => server.close()));
}

const median = (values: number[]) => spread(values).median;
const raw = of('raw fetch');
const figure = (values: number[], rawValues: number[]) =>
  `${median(values).toFixed(1).padStart(6)} (+${(median(values) - median(rawValues)).toFixed(1)} over raw)`;
console.log(
  `submit, click → dial code laid out, medians of ${SUBMITS}: main-thread CPU unthrottled, ms | wall, CPU ${THROTTLE}× throttled, ms`,
);
for (const folder of folders) {
  const { cpu, throttled } = of(folder);
  console.log(`${basename(folder).padEnd(24)} ${figure(cpu, raw.cpu)} | ${figure(throttled, raw.throttled)}`);
}
console.log(
  `${'raw fetch'.padEnd(24)} ${median(raw.cpu).toFixed(1).padStart(6)} | ${median(raw.throttled).toFixed(1).padStart(6)}`,
);
// Builds measured in the same round meet the same moment of the machine: the median of their
// per-round differences is steadier than the difference of their medians.
const differences = (values: number[], from: number[]) => spread(values.map((value, round) => value - from[round]!));
const signed = (value: number) => value.toFixed(1).replace(/^(?!-)/, '+');
const [first, ...others] = folders;
for (const folder of others) {
  const [cpu, throttled] = (['cpu', 'throttled'] as const).map((figure) =>
    differences(of(folder)[figure], of(first!)[figure]),
  );
  console.log(
    `${basename(folder)} − ${basename(first!)}, median of per-round differences (interquartile range): CPU ${signed(cpu!.median)} (${signed(cpu!.q1)} to ${signed(cpu!.q3)}) | throttled ${signed(throttled!.median)} (${signed(throttled!.q1)} to ${signed(throttled!.q3)})`,
  );
}
