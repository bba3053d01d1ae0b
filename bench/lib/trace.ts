/**
 * Reads a Chrome trace (puppeteer's page.tracing) between two performance marks on the page's main
 * thread: how long each timeline event took (compile, evaluate, style, layout, GC…) and where the
 * sampled CPU time went, by source module and function. Modules are found from the comments an
 * unminified Rolldown bundle puts before each one (`// src/contract/rules.ts`, `//#region …`).
 */

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { data?: Record<string, unknown> } & Record<string, unknown>;
};

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; parent?: number };

export type TraceSummary = {
  /** Milliseconds between the two marks. */
  window: number;
  /** Timeline event name → total milliseconds and count inside the window (nested events overlap). */
  timeline: Record<string, { ms: number; count: number }>;
  /** "module › function" → sampled self time in milliseconds inside the window. */
  functions: Record<string, number>;
  /** module → sampled self time in milliseconds inside the window. */
  modules: Record<string, number>;
};

/** Timeline events worth reporting (devtools.timeline and v8 categories). */
const TIMELINE = new Set([
  'ParseHTML',
  'EvaluateScript',
  'v8.compile',
  'v8.produceCache',
  'V8.CompileCode',
  'v8.run',
  'FunctionCall',
  'RunMicrotasks',
  'v8.callFunction',
  'EventDispatch',
  'TimerFire',
  'UpdateLayoutTree',
  'ScheduleStyleRecalculation',
  'Layout',
  'InvalidateLayout',
  'PrePaint',
  'Paint',
  'HitTest',
  'ParseAuthorStyleSheet',
  'MajorGC',
  'MinorGC',
  'V8.GC_SCAVENGER',
  'V8.GCFinalizeMC',
  'BlinkGC.AtomicPhase',
  'ResourceSendRequest',
  'ResourceReceiveResponse',
  'ResourceFinish',
]);

/** Line index → module, from the bundle's module comments. */
export function moduleMap(code: string): (line: number) => string {
  const starts: { line: number; module: string }[] = [];
  code.split('\n').forEach((text, line) => {
    const match = /^\s*\/\/(?:#region)?\s+((?:src|node_modules|bench|dist)\/\S+\.[cm]?[jt]s)\s*$/.exec(text);
    if (match) starts.push({ line, module: match[1]!.replace(/^node_modules\//, '') });
  });
  return (line) => {
    let found = '(bundle prelude)';
    for (const start of starts) {
      if (start.line > line) break;
      found = start.module;
    }
    return found;
  };
}

export function summarize(
  events: TraceEvent[],
  from: string,
  to: string,
  moduleOf: (url: string, line: number) => string,
): TraceSummary {
  const mark = (name: string) => events.find((event) => event.name === name && event.cat.includes('blink.user_timing'));
  const start = mark(from);
  const end = mark(to);
  if (!start || !end) throw new Error(`trace: marks ${from} / ${to} not found`);
  const { pid, tid } = start;
  const inWindow = (ts: number) => ts >= start.ts && ts <= end.ts;

  const timeline: TraceSummary['timeline'] = {};
  for (const event of events) {
    if (event.pid !== pid || event.tid !== tid || event.ph !== 'X' || !TIMELINE.has(event.name)) continue;
    if (!inWindow(event.ts)) continue;
    const entry = (timeline[event.name] ??= { ms: 0, count: 0 });
    entry.ms += Math.min(event.dur ?? 0, end.ts - event.ts) / 1000;
    entry.count += 1;
  }

  // The sampled CPU profile of this renderer's main isolate: a 'Profile' event, then 'ProfileChunk's.
  const functions: Record<string, number> = {};
  const modules: Record<string, number> = {};
  const profiles = events.filter((event) => event.name === 'Profile' && event.pid === pid);
  for (const profile of profiles) {
    const chunks = events.filter(
      (event) => event.name === 'ProfileChunk' && event.pid === pid && event.id === profile.id,
    );
    const nodes = new Map<number, ProfileNode>();
    let time = Number((profile.args?.data as { startTime?: number } | undefined)?.startTime ?? 0);
    const samples: { node: number; ts: number; line: number | undefined }[] = [];
    for (const chunk of chunks) {
      const data = chunk.args?.data as {
        cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
        timeDeltas?: number[];
        lines?: number[];
      };
      for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
      const ids = data.cpuProfile?.samples ?? [];
      ids.forEach((node, i) => {
        time += data.timeDeltas?.[i] ?? 0;
        samples.push({ node, ts: time, line: data.lines?.[i] });
      });
    }
    samples.forEach((sample, i) => {
      const next = samples[i + 1];
      if (!next || !inWindow(sample.ts)) return;
      const frame = nodes.get(sample.node)?.callFrame;
      if (!frame || frame.functionName === '(idle)') return;
      const line = sample.line !== undefined && sample.line > 0 ? sample.line - 1 : frame.lineNumber;
      const module = frame.url ? moduleOf(frame.url, line) : '(native)';
      const ms = (Math.min(next.ts, end.ts) - sample.ts) / 1000;
      const name = `${module} › ${frame.functionName || '(anonymous)'}`;
      functions[name] = (functions[name] ?? 0) + ms;
      modules[module] = (modules[module] ?? 0) + ms;
    });
  }
  return { window: (end.ts - start.ts) / 1000, timeline, functions, modules };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The median of several summaries, figure by figure (a figure missing from a load counts as 0): on
 * a busy machine one load's sample can absorb a long wait for a core, which an average would spread.
 */
export function medianOf(summaries: TraceSummary[]): TraceSummary {
  const merge = (pick: (s: TraceSummary) => Record<string, number>) => {
    const keys = new Set(summaries.flatMap((s) => Object.keys(pick(s))));
    return Object.fromEntries([...keys].map((key) => [key, median(summaries.map((s) => pick(s)[key] ?? 0))]));
  };
  const names = new Set(summaries.flatMap((s) => Object.keys(s.timeline)));
  const timeline: TraceSummary['timeline'] = {};
  for (const name of names) {
    timeline[name] = {
      ms: median(summaries.map((s) => s.timeline[name]?.ms ?? 0)),
      count: median(summaries.map((s) => s.timeline[name]?.count ?? 0)),
    };
  }
  return {
    window: median(summaries.map((s) => s.window)),
    timeline,
    functions: merge((s) => s.functions),
    modules: merge((s) => s.modules),
  };
}
