/**
 * Reads the figures out of scripts/bench-server.ts's printed output (it is run as it is, and may
 * change): each "N in flight" / "In process" section's "session handler" and "sandbox directly"
 * lines. `undefined` when no such line is found; the output itself is always kept.
 */
export type ServerLine = { requests: number; rps: number; p50: number; p99: number };
export type ServerFigures = { rows: { phase: string; handler: ServerLine; direct: ServerLine | undefined }[] };

const LINE = /^\s+(.+?)\s{2,}(\d+) req\s+([\d.]+) req\/s\s+p50 ([\d.]+) ms\s+p99 ([\d.]+) ms/;

export function parseServerBench(output: string): ServerFigures | undefined {
  const sections = new Map<string, Record<string, ServerLine>>();
  let phase = '';
  for (const text of output.split('\n')) {
    const heading = /^(\d+ in flight)/.exec(text) ?? /^(In process[^,]*)/i.exec(text);
    if (heading) {
      phase = heading[1]!.startsWith('In process') ? 'in process, no sockets' : `over HTTP, ${heading[1]}`;
      continue;
    }
    const match = LINE.exec(text);
    if (!match || !phase) continue;
    const [, name, requests, rps, p50, p99] = match;
    const lines = sections.get(phase) ?? {};
    lines[name!] = { requests: Number(requests), rps: Number(rps), p50: Number(p50), p99: Number(p99) };
    sections.set(phase, lines);
  }
  const rows = [...sections].flatMap(([phase, lines]) =>
    lines['session handler'] ? [{ phase, handler: lines['session handler'], direct: lines['sandbox directly'] }] : [],
  );
  return rows.length > 0 ? { rows } : undefined;
}
