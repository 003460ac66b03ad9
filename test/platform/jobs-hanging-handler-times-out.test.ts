/**
 * runDueJobs once had no per-job deadline, so one handler that never settled (a provider
 * call without a timeout) stalled its batch and, since a task never overlaps itself, the worker's
 * job runner for good. Each handler now runs under a timeout shorter than the lease; a timed-out job
 * is retried like a failed one, and the jobs behind it run.
 */
import { afterAll, expect, it } from 'vitest';
import { defineJob, enqueueJob, jobRegistry, runDueJobs } from '../../src/platform/jobs.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a hanging job times out, is rescheduled, and the due jobs behind it run', async () => {
  let ran = 0;
  const hang = defineJob('timeout.hang', { run: () => new Promise(() => {}) });
  const after = defineJob('timeout.after', {
    run: async () => {
      ran++;
      return { done: true };
    },
  });
  const registry = jobRegistry([hang, after]);
  const at = new Date(world.deps.clock.now().getTime() - 1000);
  const hangId = await world.db.transaction(async (tx) => {
    const id = await enqueueJob(tx, hang, {}, at);
    for (let i = 1; i <= 5; i++) await enqueueJob(tx, after, {}, new Date(at.getTime() + i));
    return id;
  });

  const kinds = ['timeout.hang', 'timeout.after'];
  await runDueJobs(world.deps, registry, kinds, { handlerTimeoutMs: 50 });
  await runDueJobs(world.deps, registry, kinds, { handlerTimeoutMs: 50 });
  expect(ran).toBe(5);
  const { rows } = await world.db.query<{ done_at: Date | null; last_error: string | null; run_at: Date }>(
    'SELECT done_at, last_error, run_at FROM jobs WHERE id = $1',
    [hangId],
  );
  expect(rows[0]!.done_at).toBeNull();
  expect(rows[0]!.last_error).toMatch(/took longer than 50 ms/);
  expect(rows[0]!.run_at.getTime()).toBeGreaterThan(world.deps.clock.now().getTime());
});
