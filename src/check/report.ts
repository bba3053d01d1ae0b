// How results are shown: one line per check (`ok`, `FAIL <what to fix>`, `skip (why)`), notes
// indented under it, a summary line; or all of it as JSON for CI.
import type { CheckResult } from './types.js';

export function resultLines(result: CheckResult): string[] {
  const head = result.status === 'ok' ? 'ok  ' : result.status === 'skip' ? 'skip' : 'FAIL';
  const lines = [`${head} ${result.name}: ${result.title}${result.status === 'skip' ? ` (${result.notes[0]})` : ''}`];
  for (const problem of result.problems) lines.push(`       FAIL ${problem}`);
  if (result.status !== 'skip') for (const note of result.notes) lines.push(`       note ${note}`);
  return lines;
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
