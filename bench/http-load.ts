import { fork } from 'node:child_process';
import path from 'node:path';

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
export interface AutocannonResult {
  latency: { p50: number; p99: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

/** Runs autocannon in a child process (its own event loop, its own core when one is free). */
export function runLoad(job: LoadJob): Promise<AutocannonResult> {
  const child = fork(path.join(import.meta.dirname, 'load-generator.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as AutocannonResult));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code} before answering`)));
    child.send(job);
  });
}
