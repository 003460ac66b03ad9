/**
 * `lastro serve --processes N`: N API processes share one port, the primary's metrics listener sums
 * theirs, an API process that dies is replaced, and SIGTERM stops them all. More than one process on
 * the embedded database is refused, naming the setting.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { onRealPostgres } from '../support/database.ts';
import { serverHarness } from '../support/server-process.ts';

const metricsPort = 19_000 + (process.pid % 1000);
const harness = serverHarness('procs', 6000, { METRICS_PORT: String(metricsPort), LOG_LEVEL: 'info' });

afterAll(() => harness.cleanup());

/** The live API processes whose parent is `pid` (Linux /proc; tsx's esbuild service is another child). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === pid && command.includes('main.ts')) found.push(Number(entry));
    } catch {
      // the process ended while listing
    }
  }
  return found.sort();
}

/** The sum of every HTTP request count the metrics listener reports. */
async function requestsCounted(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('lastro_http_request_duration_seconds_count'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describe.runIf(onRealPostgres())('serve with several API processes', () => {
  it('serves from two processes on one port, sums their metrics, replaces one that dies', async () => {
    await harness.prepare();
    const started = harness.start(['serve', '--processes', '2', '--no-workers']);
    expect(await harness.healthy()).toBe(true);
    const primary = started.child.pid!;
    expect(await harness.waitFor(async () => childrenOf(primary).length === 2, 30_000)).toBe(true);
    expect(await harness.waitFor(async () => started.output().includes('"processes":2'), 30_000)).toBe(true);

    const owner = await harness.owner('Processes');
    for (let i = 0; i < 20; i++) {
      expect((await owner.api('GET', '/v1/sandbox/balances')).status).toBe(200);
    }
    expect(await requestsCounted()).toBeGreaterThanOrEqual(20);

    const [victim] = childrenOf(primary);
    process.kill(victim!, 'SIGKILL');
    const replaced = await harness.waitFor(async () => {
      const now = childrenOf(primary);
      return (
        now.length === 2 &&
        !now.includes(victim!) &&
        (await owner.api('GET', '/v1/sandbox/balances')).status === 200
      );
    }, 60_000);
    expect(replaced).toBe(true);

    const children = childrenOf(primary);
    started.child.kill('SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
    expect(children.filter(existsProcess)).toEqual([]);
  }, 180_000);
});

describe.runIf(!onRealPostgres())('serve with several API processes on the embedded database', () => {
  it('is refused in one line naming API_PROCESSES', async () => {
    const started = harness.start(['serve', '--processes', '2']);
    const { code } = await started.exited;
    expect(code).toBe(1);
    expect(started.output()).toContain('API_PROCESSES');
    expect(started.output()).toContain('needs PostgreSQL');
  }, 60_000);
});

function existsProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
