/**
 * Where one request's CPU goes: `node --perf-basic-prof --import tsx bench/cpu-budget.ts
 * [--scenario payout-hot|payout-spread|cash-in-spread] [--seconds N] [--warm-up N] [--keep]` serves the bench's app on a
 * scratch PostgreSQL database (as `npm run bench -- --only=http`), loads it with one scenario, and
 * meanwhile records the process with Linux perf (software cpu-clock event, call graphs; package
 * linux-perf). It prints the server's CPU per request and that time split into the request's phases
 * (bench/cpu-phases.ts). --perf-basic-prof lets perf name JavaScript frames.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPostgres } from '../src/db/postgres.ts';
import { HELPER_THREADS, phasesOf } from './cpu-phases.ts';
import { chooseLoadGenerator, runLoad } from './http-load.ts';
import { cashIn, payout, serveForBench } from './parts/http.ts';
import { scratchDatabase } from './scratch.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] !== undefined ? args[index + 1]! : fallback;
};
const scenario = option('scenario', 'payout-spread');
const seconds = Number(option('seconds', '10'));
// V8 is still compiling the request path for about ten seconds of load (--trace-opt): a shorter
// warm-up counts that compiling as the requests' own CPU.
const warmUpSeconds = Number(option('warm-up', '12'));
if (!(seconds > 0 && warmUpSeconds >= 0)) {
  console.error('cpu-budget: --seconds takes a number above 0, --warm-up a number of 0 or more');
  process.exit(2);
}
const databaseUrl =
  process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
if (!process.execArgv.includes('--perf-basic-prof')) {
  console.error('cpu-budget: run it as node --perf-basic-prof --import tsx bench/cpu-budget.ts');
  process.exit(2);
}

/** perf recording this process; `ended` settles when perf has exited, or could not start. */
function record(output: string): { perf: ChildProcess; ended: Promise<unknown> } {
  const args = ['record', '-F', '999', '-e', 'cpu-clock', '-g', '-p', String(process.pid), '-o', output];
  const perf = spawn('perf', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const ended = new Promise((resolve) => {
    perf.once('exit', resolve);
    perf.once('error', (error) => {
      console.error(`cpu-budget: perf could not run (${error.message}); apt-get install -y linux-perf`);
      resolve(error);
    });
  });
  return { perf, ended };
}

const threadsOfThisProcess = () => new Set(readdirSync(`/proc/${process.pid}/task`).map(Number));

const scratch = await scratchDatabase(databaseUrl, 'lastro_bench_budget');
const db = openPostgres(scratch.url, 32);
const output = path.join(tmpdir(), `lastro-cpu-budget-${process.pid}.data`);
try {
  const server = await serveForBench(db);
  const targets =
    scenario === 'payout-hot'
      ? [payout(server.merchants[0]!)]
      : server.merchants.map(scenario === 'cash-in-spread' ? cashIn : payout);
  const generator = chooseLoadGenerator();
  await runLoad({ url: server.url, connections: 32, seconds: warmUpSeconds, targets }, generator);
  const { perf, ended } = record(output);
  await new Promise((resolve) => setTimeout(resolve, 500)); // perf attaches
  const cpu = process.cpuUsage();
  const result = await runLoad({ url: server.url, connections: 32, seconds, targets }, generator);
  const used = process.cpuUsage(cpu);
  const threads = threadsOfThisProcess();
  perf.kill('SIGINT');
  await ended;
  await server.close();
  const script = execFileSync('perf', ['script', '-i', output], {
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const phases = phasesOf(script.toString(), process.pid, threads);
  printBudget(phases, (used.user + used.system) / 1000 / result['2xx'], result['2xx'] / result.duration);
} finally {
  if (args.includes('--keep')) console.log(`perf data kept: ${output} (perf report -i ${output})`);
  else rmSync(output, { force: true });
  await db.close();
  await scratch.drop();
}

function printBudget(phases: Map<string, number>, cpuMsPerRequest: number, perSecond: number) {
  const total = [...phases.values()].reduce((sum, count) => sum + count, 0);
  console.log(
    `${scenario}: ${perSecond.toFixed(0)} requests/s, server CPU ${cpuMsPerRequest.toFixed(3)} ms a request, ${total} samples`,
  );
  console.log('| phase | share | µs a request |');
  console.log('|---|---|---|');
  const rows = [...phases.entries()].sort((a, b) => b[1] - a[1]);
  for (const [phase, count] of rows) {
    const share = count / total;
    console.log(
      `| ${phase} | ${(100 * share).toFixed(1)} % | ${(1000 * share * cpuMsPerRequest).toFixed(0)} |`,
    );
  }
  if (!phases.has(HELPER_THREADS)) console.log('(no helper-thread samples)');
}
