export type Cell = string;

/** A plain-text table: the first column left-aligned, the others too (they hold ranges and notes). */
export function printTable(head: Cell[], rows: Cell[][]): void {
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: Cell[]) =>
    cells
      .map((cell, i) => (cell ?? '').padEnd(width[i]!))
      .join(' │ ')
      .trimEnd();
  console.log(line(head));
  console.log(width.map((w) => '─'.repeat(w)).join('─┼─'));
  for (const row of rows) console.log(line(row));
}
