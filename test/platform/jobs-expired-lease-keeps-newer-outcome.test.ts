/**
 * A job's outcome was once written without checking that the writer still held the
 * job's lease, so a worker whose lease had run out (and whose job another worker had taken over
 * and finished) overwrote the newer outcome. Claims now carry a lease token and every outcome
 * UPDATE is fenced by it; handlers run under a timeout so that, on the real clock, a claim's
 * jobs finish within its lease (a job starts only while the lease leaves room for its timeout).
 */
import { afterAll, expect, it } from 'vitest';
import { defineJob, enqueueJob, jobRegistry, runDueJobs } from '../../src/platform/jobs.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a worker whose lease ran out cannot overwrite the outcome of the worker that took the job over', async () => {
  let calls = 0;
  const slow = defineJob('lease.slow', {
    run: async (deps) => {
      calls++;
      if (calls > 1) return { done: true };
      // The first run outlives its lease (the clock moves instead of sleeping); a second worker
      // takes the job over and finishes it; then the first run fails late.
      world.clock.advance(61_000);
      await runDueJobs(deps, registry, ['lease.slow']);
      return { done: false, retryAt: new Date(deps.clock.now().getTime() + 1000), reason: 'late failure' };
    },
  });
  const registry = jobRegistry([slow]);
  const id = await world.db.transaction((tx) =>
    enqueueJob(tx, slow, {}, new Date(world.deps.clock.now().getTime() - 1000)),
  );
  await runDueJobs(world.deps, registry, ['lease.slow']);
  expect(calls).toBe(2);
  const { rows } = await world.db.query<{ done_at: Date | null; last_error: string | null }>(
    'SELECT done_at, last_error FROM jobs WHERE id = $1',
    [id],
  );
  expect(rows[0]!.done_at).not.toBeNull();
  expect(rows[0]!.last_error).toBeNull();
});
