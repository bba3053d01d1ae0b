// How results are shown: one line per check (`ok`, `FAIL <what to fix>`, `skip (why)`), notes
// indented under it, a summary line; or all of it as JSON for CI. Problems and notes quote the back
// end's answers, so they are printed without control characters: an answer cannot move the cursor,
// colour the terminal or start a line of its own (a fake `ok`).
import type { CheckResult } from './types.js';

export function resultLines(result: CheckResult): string[] {
  const head = result.status === 'ok' ? 'ok  ' : result.status === 'skip' ? 'skip' : 'FAIL';
  const lines = [
    `${head} ${result.name}: ${result.title}${result.status === 'skip' ? ` (${printable(result.notes[0] ?? '')})` : ''}`,
  ];
  for (const problem of result.problems) lines.push(`       FAIL ${printable(problem)}`);
  if (result.status !== 'skip') for (const note of result.notes) lines.push(`       note ${printable(note)}`);
  return lines;
}

/** C0 and C1 controls (line breaks, ESC, CSI…) and the bidirectional overrides that reorder what is shown. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` on one line, each control character shown as `\u{1b}`, so that it is seen and has no effect. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);
}

export function summaryLine(results: readonly CheckResult[]): string {
  const count = (status: CheckResult['status']) => results.filter((result) => result.status === status).length;
  const failed = count('fail');
  const tail = `${count('ok')} passed, ${failed} failed, ${count('skip')} skipped`;
  return failed ? `pay-widget check: FAIL (${tail})` : `pay-widget check: ok (${tail})`;
}

export function jsonReport(gatewayUrl: string, results: readonly CheckResult[]): string {
  return JSON.stringify({ ok: results.every((result) => result.status !== 'fail'), gatewayUrl, results }, null, 2);
}
