import { writeFileSync } from 'node:fs';
import { progressTo } from '../src/platform/progress.ts';
import { httpBench } from './parts/http.ts';
import { ledgerBench } from './parts/ledger.ts';
import { processesBench } from './parts/processes.ts';
import { webhooksPart } from './parts/webhooks.ts';
import { type BenchPart, type BenchRow, printTable } from './table.ts';

/** Every benchmark part; each issue that measures something adds its part here. */
const PARTS: BenchPart[] = [webhooksPart, ledgerBench, httpBench, processesBench];

const args = process.argv.slice(2);
const jsonIndex = args.indexOf('--json');
const jsonPath = jsonIndex >= 0 ? args[jsonIndex + 1] : undefined;
const only = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const quick = args.includes('--quick');
const databaseUrl =
  process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const rows: BenchRow[] = [];
const chosen = PARTS.filter((part) => !only || only.split(',').includes(part.name));
// Which part runs, on stderr: stdout is the table alone.
const progress = progressTo(process.stderr).task('bench', chosen.length);
for (const part of chosen) {
  progress.step(part.name);
  rows.push(...(await part.run({ databaseUrl, quick })));
}
progress.done(`${rows.length} row(s)`);
printTable(rows);
if (jsonPath) writeFileSync(jsonPath, JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
