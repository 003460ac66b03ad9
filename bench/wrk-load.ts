/**
 * The HTTP load from wrk (Debian's package: `apt-get install -y wrk`), a C load generator that costs
 * the machine a small share of what autocannon costs, so that a row's figures are the server's. A Lua
 * script sends each request to the next target in turn with a fresh Idempotency-Key and prints the
 * summary as JSON when wrk is done.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadJob, LoadResult } from './http-load.ts';

/** Whether `wrk` is on the PATH. */
export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

const luaString = (text: string) =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** The Lua script: one table of targets, a per-thread counter and random prefix for the keys. */
export function wrkScript(job: LoadJob): string {
  const targets = job.targets.map((target) => {
    const headers = Object.entries({ ...target.headers, 'content-type': 'application/json' })
      .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
      .join(', ');
    return `{ path = ${luaString(target.path)}, body = ${luaString(target.body)}, headers = { ${headers} } }`;
  });
  return `
local targets = { ${targets.join(',\n  ')} }
local threads = {}
local counter, prefix = 0, ""
function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end
function init(args)
  math.randomseed(os.time() * 1000 + (id or 0))
  prefix = string.format("%08x-%04x-4%03x", math.random(0, 0x7fffffff), id or 0, math.random(0, 0xfff))
end
function request()
  counter = counter + 1
  local target = targets[(counter % #targets) + 1]
  target.headers["idempotency-key"] = string.format("%s-a%03x-%012x", prefix, counter % 0xfff, counter)
  return wrk.format("POST", target.path, target.headers, target.body)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\nWRK_JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
}

interface WrkSummary {
  requests: number;
  duration_us: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50_us: number;
  p99_us: number;
}

/** wrk's summary in the shape the bench reads (wrk counts a 4xx/5xx answer as a status error). */
export function wrkResult(output: string): LoadResult {
  const line = output.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`wrk printed no summary:\n${output}`);
  const s = JSON.parse(line.slice('WRK_JSON '.length)) as WrkSummary;
  return {
    latency: { p50: s.p50_us / 1000, p99: s.p99_us / 1000 },
    duration: s.duration_us / 1e6,
    non2xx: s.status,
    errors: s.connect + s.read + s.write,
    timeouts: s.timeout,
    '2xx': s.requests - s.status,
  };
}

/** Runs wrk with two threads (one per core of this machine's size) over the job's connections. */
export function runWrk(job: LoadJob): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lastro-wrk-'));
  const script = path.join(dir, 'load.lua');
  writeFileSync(script, wrkScript(job));
  const threads = Math.min(2, job.connections);
  const args = ['-t', String(threads), '-c', String(job.connections), '-d', `${job.seconds}s`];
  const child = spawn('wrk', [...args, '--timeout', '10s', '-s', script, job.url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise<LoadResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) reject(new Error(`wrk exited with ${code}:\n${output}`));
      else {
        try {
          resolve(wrkResult(output));
        } catch (error) {
          reject(error);
        }
      }
    });
  });
}
