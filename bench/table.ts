/** One measured row of the benchmark table. */
export interface BenchRow {
  part: string;
  scenario: string;
  /** A stable name for the scenario, for rows that compare themselves with another. */
  scenarioId?: string;
  database: 'pglite' | 'postgres' | 'citus' | '-';
  concurrency: number;
  /** Operations per second: postings, transfers, requests or deliveries, as the scenario says. */
  opsPerSec: number;
  p50Ms?: number;
  p99Ms?: number;
  /** Free-form: ratios to a baseline, notes. */
  note?: string;
}

export interface BenchPart {
  name: string;
  run(options: { databaseUrl: string | undefined; quick: boolean }): Promise<BenchRow[]>;
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return 0;
  const index = Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)]!;
}

export function printTable(rows: BenchRow[]): void {
  const header = ['part', 'scenario', 'db', 'conc', 'ops/s', 'p50 ms', 'p99 ms', 'note'];
  const body = rows.map((row) => [
    row.part,
    row.scenario,
    row.database,
    String(row.concurrency),
    row.opsPerSec.toFixed(0),
    row.p50Ms === undefined ? '' : row.p50Ms.toFixed(2),
    row.p99Ms === undefined ? '' : row.p99Ms.toFixed(2),
    row.note ?? '',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const cells of body) console.log(line(cells));
}
