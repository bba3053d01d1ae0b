/**
 * Where a submit's main-thread time goes on a slow phone, phase by phase: the script-tag widget
 * (dist/, as `npm run bench` serves it) traced from the click to the dial code laid out, with the
 * page's CPU throttled as `npm run bench`'s throttled rows, one fresh browser context per submit.
 * Prints the median and every sample of each phase: the click's submit handler, the update after
 * it, and in the task that shows the result its JavaScript before the first style recalculation,
 * its style and its layout.
 *
 *   node --import tsx scripts/bench-phases.ts [--submits 12] [--throttle 4]
 *
 * Run `npm run build` first. Tracing slows the page a little: compare builds with it, and read the
 * figures themselves in `npm run bench`.
 */
import { parseArgs } from 'node:util';
import { buildContenders } from '../bench/lib/build.js';
import { inFreshThrottledContext, launchChromium, submitToResult } from '../bench/lib/browser.js';
import { startServer } from '../bench/lib/server.js';

const { values: args } = parseArgs({
  options: { submits: { type: 'string', default: '12' }, throttle: { type: 'string', default: '4' } },
});
const SUBMITS = Math.max(1, Number(args.submits));
const THROTTLE = Math.max(1, Number(args.throttle));

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { functionName?: string } };
};

const widget = (await buildContenders()).find((contender) => contender.id === 'widget')!;
const server = await startServer([widget]);
const browser = await launchChromium();
const phases: Record<string, number[]> = {};
const record = (phase: string, ms: number) => (phases[phase] ??= []).push(ms);

try {
  for (let submit = 0; submit < SUBMITS; submit += 1) {
    await inFreshThrottledContext(browser, THROTTLE, async (page) => {
      await page.tracing.start({ categories: ['devtools.timeline', 'blink.user_timing', 'v8.execute'] });
      await submitToResult(page, `${server.origin}/submit/widget`, widget.tag, Object.keys(widget.beside ?? {}));
      const events: TraceEvent[] = JSON.parse(new TextDecoder().decode(await page.tracing.stop())).traceEvents;
      const mark = (name: string) => events.find((event) => event.name === name && event.ph !== 'e')!;
      const [click, result] = [mark('bench:click'), mark('bench:result')];
      const main = events.filter((event) => event.pid === click.pid && event.tid === click.tid && event.ph === 'X');
      // The task a mark fell in: the longest event around it.
      const taskAround = (at: TraceEvent) =>
        main.filter((e) => e.dur && e.ts <= at.ts && e.ts + e.dur >= at.ts).sort((a, b) => b.dur! - a.dur!)[0]!;
      const inside = (task: TraceEvent) =>
        main.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur!);
      const total = (list: TraceEvent[], name: string) =>
        list.filter((e) => e.name === name).reduce((sum, e) => sum + e.dur!, 0) / 1000;
      const [clickTask, resultTask] = [taskAround(click), taskAround(result)];
      const [inClick, inResult] = [inside(clickTask), inside(resultTask)];
      record('click → result laid out', (result.ts - click.ts) / 1000);
      record(
        'click: submit handler',
        inClick
          .filter((e) => e.name === 'FunctionCall' && e.args?.data?.functionName === 'handleEvent')
          .reduce((sum, e) => sum + e.dur!, 0) / 1000,
      );
      record('click: the update after it', total(inClick, 'RunMicrotasks'));
      const firstStyle = inResult.find((e) => e.name === 'UpdateLayoutTree' || e.name === 'Layout');
      record('result: script before style', ((firstStyle?.ts ?? result.ts) - resultTask.ts) / 1000);
      record('result: style', total(inResult, 'UpdateLayoutTree'));
      record('result: layout', total(inResult, 'Layout'));
      record('result: task to the mark', (result.ts - resultTask.ts) / 1000);
    });
  }
} finally {
  await browser.close();
  await server.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`CPU ${THROTTLE}× throttled, ${SUBMITS} submits, ms: median  [each submit]`);
for (const [phase, values] of Object.entries(phases)) {
  console.log(
    `${phase.padEnd(30)} ${median(values).toFixed(2).padStart(7)}  [${values.map((v) => v.toFixed(1)).join(' ')}]`,
  );
}
