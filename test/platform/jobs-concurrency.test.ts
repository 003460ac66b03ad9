/**
 * The worker runs a claim's jobs side by side, one subject's jobs one after another in run_at
 * order, and hands back unrun a job whose turn comes too late to finish within the lease.
 */
import { afterAll, expect, it } from 'vitest';
import { defineJob, enqueueJob, jobRegistry, runDueJobs } from '../../src/platform/jobs.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

const due = (secondsAgo: number) => new Date(world.deps.clock.now().getTime() - secondsAgo * 1000);

it('runs jobs of different subjects concurrently and one subject’s jobs in order', async () => {
  const log: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const step = defineJob<{ subject: string; n: number }>('concurrency.step', {
    subject: (p) => p.subject,
    run: async (_deps, p) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      log.push(`start ${p.subject}${p.n}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      log.push(`end ${p.subject}${p.n}`);
      inFlight--;
      return { done: true };
    },
  });
  const registry = jobRegistry([step]);
  await world.db.transaction(async (tx) => {
    for (const subject of ['a', 'b', 'c']) {
      await enqueueJob(tx, step, { subject, n: 1 }, due(3));
      await enqueueJob(tx, step, { subject, n: 2 }, due(2));
    }
  });
  expect(await runDueJobs(world.deps, registry, ['concurrency.step'])).toBe(6);
  expect(peak).toBe(3);
  for (const subject of ['a', 'b', 'c']) {
    expect(log.indexOf(`end ${subject}1`)).toBeLessThan(log.indexOf(`start ${subject}2`));
  }
  const { rows } = await world.db.query<{ open: number }>(
    "SELECT count(*)::int AS open FROM jobs WHERE kind = 'concurrency.step' AND done_at IS NULL",
  );
  expect(rows[0]!.open).toBe(0);
});

it('hands back unrun, with its attempt restored, a job whose turn comes after its lease could end', async () => {
  const ran: number[] = [];
  const slow = defineJob<{ n: number }>('concurrency.slow', {
    subject: () => 'one-payment',
    run: async (deps, p) => {
      ran.push(p.n);
      // The first job uses up 55 s of the 60 s lease; the second cannot finish within what is left.
      (deps.clock as typeof world.clock).advance(55_000);
      return { done: true };
    },
  });
  const registry = jobRegistry([slow]);
  const [, second] = await world.db.transaction(async (tx) => [
    await enqueueJob(tx, slow, { n: 1 }, due(2)),
    await enqueueJob(tx, slow, { n: 2 }, due(1)),
  ]);
  await runDueJobs(world.deps, registry, ['concurrency.slow']);
  expect(ran).toEqual([1]);
  const { rows } = await world.db.query<{
    done_at: Date | null;
    locked_until: Date | null;
    attempts: number;
  }>('SELECT done_at, locked_until, attempts FROM jobs WHERE id = $1', [second]);
  expect(rows[0]).toEqual({ done_at: null, locked_until: null, attempts: 0 });
  await runDueJobs(world.deps, registry, ['concurrency.slow']);
  expect(ran).toEqual([1, 2]);
});

/** A job kind whose handler records how many of its runs overlap, each taking `ms`. */
function overlapping(kind: string, ms: number, serialKey?: (p: { subject: string }) => string) {
  const seen = { peak: 0, inFlight: 0, ran: [] as string[] };
  const job = defineJob<{ subject: string }>(kind, {
    subject: (p) => p.subject,
    ...(serialKey ? { serialKey } : {}),
    run: async (_deps, p) => {
      seen.peak = Math.max(seen.peak, ++seen.inFlight);
      await new Promise((resolve) => setTimeout(resolve, ms));
      seen.inFlight--;
      seen.ran.push(p.subject);
      return { done: true };
    },
  });
  return { job, seen };
}

it('runs at most eight jobs at once, so a claim never takes the whole connection pool', async () => {
  const { job, seen } = overlapping('concurrency.wide', 20);
  await world.db.transaction(async (tx) => {
    for (let i = 0; i < 12; i++) await enqueueJob(tx, job, { subject: `s${i}` }, due(1));
  });
  expect(await runDueJobs(world.deps, jobRegistry([job]), ['concurrency.wide'])).toBe(12);
  expect(seen.peak).toBe(8);
  expect(seen.ran).toHaveLength(12);
});

it('runs jobs that share a serial key one after another even when their subjects differ', async () => {
  const { job, seen } = overlapping('concurrency.keyed', 20, () => 'one-wallet');
  await world.db.transaction(async (tx) => {
    await enqueueJob(tx, job, { subject: 'first' }, due(2));
    await enqueueJob(tx, job, { subject: 'second' }, due(1));
  });
  await runDueJobs(world.deps, jobRegistry([job]), ['concurrency.keyed']);
  expect(seen.peak).toBe(1);
  expect(seen.ran).toEqual(['first', 'second']);
});

it('does not start a subject’s next job while a timed-out one may still run: it goes back unrun', async () => {
  const started: number[] = [];
  let release = () => {};
  const hung = new Promise<void>((resolve) => {
    release = resolve;
  });
  const job = defineJob<{ n: number }>('concurrency.hung', {
    subject: () => 'one-payment',
    run: async (_deps, p) => {
      started.push(p.n);
      if (p.n === 1) await hung;
      return { done: true };
    },
  });
  const registry = jobRegistry([job]);
  const [first, second] = await world.db.transaction(async (tx) => [
    await enqueueJob(tx, job, { n: 1 }, due(2)),
    await enqueueJob(tx, job, { n: 2 }, due(1)),
  ]);
  await runDueJobs(world.deps, registry, ['concurrency.hung'], { handlerTimeoutMs: 50 });
  expect(started).toEqual([1]);
  const { rows } = await world.db.query<{
    id: string;
    locked_until: Date | null;
    attempts: number;
    last_error: string | null;
  }>('SELECT id, locked_until, attempts, last_error FROM jobs WHERE id = ANY($1) ORDER BY run_at', [
    [first, second],
  ]);
  expect(rows.find((row) => row.id === first)).toMatchObject({ attempts: 1, locked_until: null });
  expect(rows.find((row) => row.id === first)!.last_error).toMatch(/longer than 50 ms/);
  expect(rows.find((row) => row.id === second)).toMatchObject({
    attempts: 0,
    locked_until: null,
    last_error: null,
  });
  release();
});
