/**
 * How the benches print: tables and verdicts on stdout, progress on stderr,
 * so `npm run bench > bench.md` keeps only the results.
 */

/** A Markdown table with padded columns: readable in a terminal, pastes as is. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string => `| ${widths.map((width, i) => (cells[i] ?? '').padEnd(width)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

export function progress(message: string): void {
  console.error(`  … ${message}`);
}

/** "MET" or "MISSED", spelled so a miss stands out in a wall of figures. */
export function verdict(met: boolean): string {
  return met ? 'MET' : 'MISSED';
}

export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** `×0.62`, or `—` when one side is not a valid measurement. */
export function ratio(numerator: number | undefined, denominator: number | undefined): string {
  return numerator === undefined || denominator === undefined || denominator === 0 ? '—' : `×${(numerator / denominator).toFixed(2)}`;
}
