import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { TaskRunner } from '../../src/platform/tasks.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

const ready = async (app = world.app) => {
  const res = await app.inject({ method: 'GET', url: '/ready' });
  return { status: res.statusCode, body: res.json() };
};

describe('/health and /ready', () => {
  it('/health says the process is up; /ready lists its checks', async () => {
    const health = await world.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ data: { status: 'ok' } });
    expect(await ready()).toEqual({
      status: 200,
      body: {
        data: {
          status: 'ready',
          checks: { database: 'ok', migrations: 'ok', workers: 'not_running' },
          pending_migrations: [],
          stalled_tasks: [],
        },
      },
    });
  });

  it('answers 503 not_ready while a migration of this code is not applied', async () => {
    const { rows } = await world.db.query<{ name: string }>(
      'SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1',
    );
    const last = rows[0]!.name;
    await world.db.query('DELETE FROM schema_migrations WHERE name = $1', [last]);
    try {
      const answer = await ready();
      expect(answer.status).toBe(503);
      expect(answer.body.data).toMatchObject({
        status: 'not_ready',
        checks: { migrations: 'pending' },
        pending_migrations: [last],
      });
    } finally {
      await world.db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [last]);
    }
    expect((await ready()).status).toBe(200);
  });

  it('answers 503 not_ready when a background loop of this process stops beating', async () => {
    let release = () => {};
    const hung = new Promise<number>((resolve) => {
      release = () => resolve(0);
    });
    const runner = new TaskRunner(
      world.deps,
      [{ name: 'hung', intervalMs: 1000, run: () => hung }],
      pino({ level: 'silent' }),
    );
    const app = await buildApp({ ...world.deps, workers: runner }, { logger: false });
    runner.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await ready(app)).body.data.checks.workers).toBe('ok');
      // The round started now and never ends: two minutes past its interval it counts as stalled.
      expect(runner.stalled(Date.now() + 60_000)).toEqual([]);
      expect(runner.stalled(Date.now() + 122_000)).toEqual(['hung']);
      const stalledApp = await buildApp(
        { ...world.deps, workers: { taskCount: 1, stalled: () => runner.stalled(Date.now() + 122_000) } },
        { logger: false },
      );
      const answer = await ready(stalledApp);
      expect(answer.status).toBe(503);
      expect(answer.body.data).toMatchObject({
        status: 'not_ready',
        checks: { database: 'ok', migrations: 'ok', workers: 'stalled' },
        stalled_tasks: ['hung'],
      });
      await stalledApp.close();
    } finally {
      release();
      await runner.stop();
      await app.close();
    }
  });
});
