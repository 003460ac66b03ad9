import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/soak/net.ts';
import { spawnCaptured } from '../support/child.ts';
import { testServerUrl, withDatabase } from '../support/database-url.ts';

/** These tests run the real CLI as a user would: `lastro serve` on the embedded database. */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'lastro-proc-'));
const children: ChildProcess[] = [];

function start(args: string[], env: Record<string, string>) {
  const started = spawnCaptured(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
  });
  children.push(started.child);
  return started;
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('lastro serve on the embedded database', () => {
  // Ports the system has free right now: a fixed range would fall in the ephemeral ports of
  // connections the other suites open, and a server starting there finds its port taken.
  it('answers /health once migrated, generates a master key, and a second process on the same DATA_DIR exits clearly', async () => {
    const port = await freePort();
    const first = start(['serve'], { DATA_DIR: dataDir, PORT: String(port) });
    const healthy = await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/health`)).status === 200,
      45_000,
    );
    expect(healthy, first.output()).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
    expect(first.output()).toContain('MASTER_KEY is not set');

    const second = start(['serve'], { DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/DATA_DIR .* is in use by process \d+/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }, 70_000);

  it.skipIf(!testServerUrl())(
    'with DATABASE_URL naming a database that does not exist yet, creates it and serves',
    async () => {
      const url = withDatabase(testServerUrl()!, `lastro_t_${inject('runId')}_proc`);
      const port = await freePort();
      const run = start(['serve'], { DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: url });
      const healthy = await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200,
        45_000,
      );
      expect(healthy, run.output()).toBe(true);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    },
    70_000,
  );

  it('a bad setting stops the start with a message naming it', async () => {
    const run = start(['serve'], { DATA_DIR: dataDir, PORT: 'eighty' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('PORT: must be a whole number');
  });
});
