/**
 * `npm start` as a newcomer meets it: the start says where to go, GET / opens the dashboard, and a
 * port another process holds is one line naming the setting, said before the database is touched.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';
import { spawnCaptured } from '../support/child.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
const held: Server[] = [];
// Below the ephemeral range and apart from process.test.ts's ports.
const base = 14_000 + (process.pid % 1000);

function serve(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lastro-start-'));
  dirs.push(dataDir);
  const started = spawnCaptured(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', DATA_DIR: dataDir, ...env },
  });
  children.push(started.child);
  return { ...started, dataDir };
}

/** Another process's listener on `port`. */
async function hold(port: number): Promise<void> {
  const server = createServer();
  held.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
}

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const server of held) server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a port already taken', () => {
  it.each([
    ['PORT', { PORT: String(base), METRICS_PORT: String(base + 1) }, base],
    ['METRICS_PORT', { PORT: String(base + 3), METRICS_PORT: String(base + 2) }, base + 2],
  ])(
    '%s: one line naming it, exit 1, nothing migrated',
    async (setting, env, taken) => {
      await hold(taken);
      const run = serve(env);
      expect(await run.exited).toBe(1);
      expect(run.output().trim()).toBe(
        `lastro: ${setting} ${taken} is already in use: set ${setting} to a free port`,
      );
      // Refused before the database was opened: no files, no lock, no generated master key.
      expect(readdirSync(run.dataDir)).toEqual([]);
    },
    90_000,
  );
});

describe('a start', () => {
  it('prints the API, reference and dashboard addresses from PUBLIC_BASE_URL', async () => {
    const port = base + 4;
    const run = serve({
      PORT: String(port),
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      PUBLIC_BASE_URL: `http://localhost:${port}/`,
    });
    const until = Date.now() + 100_000;
    while (!run.output().includes('where to go') && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const at = `http://localhost:${port}`;
    expect(run.output()).toContain(
      `where to go: API ${at} · reference ${at}/docs · dashboard ${at}/dashboard`,
    );
    const root = await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/dashboard');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 120_000);

  it('GET / redirects to the dashboard, whatever the caller sends', async () => {
    const ctx = await startTestApp();
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/dashboard');
    } finally {
      await ctx.close();
    }
  });
});
