/**
 * A workspace's sandbox clock. Sandbox time is real time plus the workspace's offset, which only
 * ever grows (POST /v1/sandbox/test-clock/advance); live time is real time and never reads the
 * offset. Only behaviour that depends on the date reads it: a due-date charge's amount due and expiry,
 * and whatever other modules schedule by date in sandbox (see index.ts for how to use it).
 */
import type { Queryable, Tx } from '../../db/types.ts';
import { auditAction } from '../../platform/audit.ts';
import type { Clock, Environment } from '../../platform/context.ts';
import { invalidRequest } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { addOffsetSeconds, clocksAhead, offsetSecondsOf } from './repo.ts';

export const SECONDS_PER_DAY = 86_400;
/** One advance moves at most ten years: enough for any schedule, far from Date's limits. */
export const MAX_ADVANCE_SECONDS = 3650 * SECONDS_PER_DAY;
/** The clock never runs more than a century ahead, however many advances add up. */
export const MAX_OFFSET_SECONDS = 36_500n * BigInt(SECONDS_PER_DAY);

export interface ClockScope {
  workspaceId: string;
  environment: Environment;
}

const shifted = (clock: Clock, offsetSeconds: bigint) =>
  new Date(clock.now().getTime() + Number(offsetSeconds) * 1000);

/**
 * Now, for a workspace and environment: real time (deps.clock) in live, without reading anything;
 * real time plus the workspace's offset in sandbox.
 */
export async function nowFor(q: Queryable, clock: Clock, scope: ClockScope): Promise<Date> {
  if (scope.environment === 'live') return clock.now();
  return shifted(clock, await offsetSecondsOf(q, scope.workspaceId));
}

/** Now for the caller of `ctx` (sandbox: the workspace's sandbox now; live: real now). */
export function sandboxNow(q: Queryable, ctx: Ctx): Promise<Date> {
  return nowFor(q, ctx.deps.clock, ctx.caller);
}

/** A clock for one workspace and environment, read once: for code that takes a Clock. */
export async function clockFor(q: Queryable, clock: Clock, scope: ClockScope): Promise<Clock> {
  if (scope.environment === 'live') return clock;
  const offset = await offsetSecondsOf(q, scope.workspaceId);
  return { now: () => shifted(clock, offset) };
}

/**
 * The workspaces whose sandbox clock runs ahead, each with a clock of its own: a sweep over sandbox
 * records due by date runs once with real time (every other workspace) and once per clock here.
 */
export async function sandboxClocksAhead(
  q: Queryable,
  clock: Clock,
): Promise<{ workspaceId: string; clock: Clock }[]> {
  return (await clocksAhead(q)).map((row) => ({
    workspaceId: row.workspace_id,
    clock: { now: () => shifted(clock, row.offset_seconds) },
  }));
}

export interface ClockView {
  workspace_id: string;
  environment: 'sandbox';
  now: string;
  real_now: string;
  offset_seconds: number;
}

const viewOf = (workspaceId: string, clock: Clock, offset: bigint): ClockView => ({
  workspace_id: workspaceId,
  environment: 'sandbox',
  now: shifted(clock, offset).toISOString(),
  real_now: clock.now().toISOString(),
  offset_seconds: Number(offset),
});

/** The caller's sandbox clock as GET /v1/sandbox/test-clock shows it. */
export async function getClock(q: Queryable, ctx: Ctx): Promise<ClockView> {
  return viewOf(ctx.caller.workspaceId, ctx.deps.clock, await offsetSecondsOf(q, ctx.caller.workspaceId));
}

/** The seconds an advance asks for: exactly one of days or seconds. */
export function advanceSeconds(input: { days?: number; seconds?: number }): bigint {
  const given = [input.days, input.seconds].filter((value) => value !== undefined);
  if (given.length !== 1)
    throw invalidRequest('Send exactly one of days or seconds.', [
      { field: 'body', issue: 'exactly one of days or seconds is required' },
    ]);
  const seconds = input.days !== undefined ? input.days * SECONDS_PER_DAY : input.seconds!;
  if (seconds > MAX_ADVANCE_SECONDS)
    throw invalidRequest(`One advance moves at most ${MAX_ADVANCE_SECONDS} seconds (3650 days).`, [
      { field: input.days !== undefined ? 'body.days' : 'body.seconds', issue: 'too far ahead' },
    ]);
  return BigInt(seconds);
}

/**
 * Moves the workspace's sandbox clock ahead and audits it. Sandbox only (the route is not there in
 * live). What became due meanwhile happens as the sweeps next run (every few seconds) or when the
 * record is next read: a due-date charge's GET already shows the amount due at the new date.
 */
export async function advanceClock(tx: Tx, ctx: Ctx, input: { days?: number; seconds?: number }) {
  const { caller, deps } = ctx;
  const seconds = advanceSeconds(input);
  const before = await offsetSecondsOf(tx, caller.workspaceId);
  if (before + seconds > MAX_OFFSET_SECONDS)
    throw invalidRequest('The sandbox clock runs at most 36500 days ahead of real time.', [
      { field: 'body', issue: 'the clock would run too far ahead' },
    ]);
  const offset = await addOffsetSeconds(tx, caller.workspaceId, seconds, deps.clock.now());
  const view = viewOf(caller.workspaceId, deps.clock, offset);
  await auditAction(
    tx,
    ctx,
    'sandbox.test_clock_advanced',
    { type: 'workspace', id: caller.workspaceId },
    { advanced_seconds: Number(seconds), offset_seconds: view.offset_seconds, now: view.now },
  );
  return view;
}
