// The dates a person gives the ledger (`--since`, `--until`, the page's filters): ISO 8601, a date
// or a date and time, UTC unless a zone is named; a date that is not on the calendar is refused.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Ms since the epoch, or undefined for text that is not such a date. */
export function parseLedgerDate(text: string): number | undefined {
  const zoned = /[T ]\d/.test(text) && !/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? `${text}Z` : text;
  const time = ISO_DATE.test(text) ? Date.parse(zoned.replace(' ', 'T')) : Number.NaN;
  return Number.isNaN(time) || !realDay(text) ? undefined : time;
}

/** An upper bound: a bare date counts to the end of that day. */
export function parseLedgerUntil(text: string): number | undefined {
  const time = parseLedgerDate(text);
  return time === undefined ? undefined : time + (/^\d{4}-\d{2}-\d{2}$/.test(text) ? DAY_MS : 0);
}

/** Its year, month and day name a day of the calendar (Date.parse takes 2026-02-30 for 2 March). */
function realDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
