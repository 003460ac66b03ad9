import { fork } from 'node:child_process';
import path from 'node:path';
import { hasWrk, runWrk } from './wrk-load.ts';

export interface LoadTarget {
  path: string;
  headers: Record<string, string>;
  body: string;
}
export interface LoadJob {
  url: string;
  connections: number;
  seconds: number;
  targets: LoadTarget[];
}
export interface LoadResult {
  latency: { p50: number; p99: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

/** Runs autocannon in a child process (its own event loop, its own core when one is free). */
function runAutocannon(job: LoadJob): Promise<LoadResult> {
  const child = fork(path.join(import.meta.dirname, 'load-generator.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code} before answering`)));
    child.send(job);
  });
}

export type LoadGenerator = 'wrk' | 'autocannon';

/**
 * wrk when the machine has it (BENCH_LOAD=autocannon forces the fallback): autocannon costs about as
 * much CPU as the server it loads, which on a small box is taken from the server.
 */
export function chooseLoadGenerator(): LoadGenerator {
  if (process.env.BENCH_LOAD === 'autocannon') return 'autocannon';
  if (hasWrk()) return 'wrk';
  console.error(
    'bench: wrk is not installed (apt-get install -y wrk); loading with autocannon, which takes ' +
      'about as much CPU as the server: the HTTP rows understate the server',
  );
  return 'autocannon';
}

export function runLoad(job: LoadJob, generator: LoadGenerator): Promise<LoadResult> {
  return generator === 'wrk' ? runWrk(job) : runAutocannon(job);
}
