/**
 * A job whose handler throws every time was retried for ever (backoff capped at 5 min, no
 * attempt limit, no terminal/dead state, nothing surfaced). src/platform/jobs.ts runDueJobs: the catch
 * branch always reschedules. For a PIX payout whose pix.send job keeps throwing, the payment stays
 * `created` with amount + fee locked for ever; nothing ever fails it and returns the money.
 */
import { afterAll, expect, it } from 'vitest';
import { defineJob, enqueueJob, jobRegistry, MAX_JOB_ATTEMPTS, runDueJobs } from '../../src/platform/jobs.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a handler that always throws is parked after MAX_JOB_ATTEMPTS', async () => {
  let runs = 0;
  const poison = defineJob('parked.poison', {
    run: async () => {
      runs++;
      throw new Error('provider said 400: malformed request');
    },
  });
  const id = await world.db.transaction((tx) => enqueueJob(tx, poison, {}, world.deps.clock.now()));

  for (let i = 0; i < 40; i++) {
    await runDueJobs(world.deps, jobRegistry([poison]), ['parked.poison']);
    world.clock.advance(5 * 60_000 + 1);
  }
  const { rows } = await world.db.query<{ attempts: number; done_at: Date | null; run_at: Date }>(
    'SELECT attempts, done_at, run_at FROM jobs WHERE id = $1',
    [id],
  );
  // Parked after MAX_JOB_ATTEMPTS: no more runs, done_at and failed_at set, the last error kept.
  expect(runs).toBe(MAX_JOB_ATTEMPTS);
  expect(rows[0]!.attempts).toBe(MAX_JOB_ATTEMPTS);
  expect(rows[0]!.done_at).not.toBeNull();
  const parked = await world.db.query<{ failed_at: Date | null; last_error: string }>(
    'SELECT failed_at, last_error FROM jobs WHERE id = $1',
    [id],
  );
  expect(parked.rows[0]!.failed_at).not.toBeNull();
  expect(parked.rows[0]!.last_error).toContain('malformed request');
});
