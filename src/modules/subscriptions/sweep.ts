/**
 * The cycle task: every open subscription is brought up to its workspace's now. A sandbox
 * subscription whose clock moved twelve months ahead runs its twelve cycles in one round, each step
 * as of its own day; a live one follows what its PSP reports (live.ts).
 */
import type { Deps, Environment } from '../../platform/context.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import { subscriptionNow } from './clock.ts';
import { creditCycle, failAttempt, isOpenCycle, nextCycle, scheduleCycle, sendDayOf } from './cycles.ts';
import { syncLiveSubscription } from './live.ts';
import { cyclesOf, findSubscription, openSubscriptions, type Scope, takePlannedFailure } from './repo.ts';
import { dayOf } from './schedule.ts';
import { moveSubscription } from './transitions.ts';

/** Bounds the steps of one subscription in one round (a weekly subscription advanced ten years). */
const MAX_STEPS = 1_000;
const PAGE = 100;

/**
 * One sandbox step, in one transaction under the subscription's lock: whichever comes first of the
 * open cycle's attempt and the next cycle's charge, when its day has come; else completion once past
 * the end date. Whether it did anything.
 */
async function sandboxStep(deps: Deps, scope: Scope, id: string, now: Date): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const row = await findSubscription(tx, scope, id, { lock: true });
    const today = dayOf(now);
    // The sandbox payer never answered: the request lapses once its first due date has passed.
    if (row?.status === 'pending_authorisation' && today > row.start_date) {
      await moveSubscription(tx, row, { to: 'expired', at: now });
      return true;
    }
    if (row?.status !== 'active') return false;
    const cycles = await cyclesOf(tx, scope, id);
    const open = cycles.filter(isOpenCycle);
    const due = open.find((cycle) => cycle.next_attempt_date! <= today);
    const next = nextCycle(row, cycles);
    const sendDay = next === 'ended' ? null : sendDayOf(row, next.due);
    if (due && (sendDay === null || due.next_attempt_date! <= sendDay)) {
      if (await takePlannedFailure(tx, scope, id))
        await failAttempt(tx, row, due, now, { reason: 'payer_insufficient_funds' });
      else await creditCycle(tx, deps, row, due, now);
      return true;
    }
    if (next === 'ended') {
      if (open.length > 0) return false;
      await moveSubscription(tx, row, { to: 'completed', at: now });
      return true;
    }
    if (sendDay === null || sendDay > today) return false;
    await scheduleCycle(tx, deps, row, next, sendDay, now);
    return true;
  });
}

async function advanceSandbox(deps: Deps, scope: Scope, id: string): Promise<number> {
  const now = await subscriptionNow(deps.db, deps, scope);
  let steps = 0;
  while (steps < MAX_STEPS && (await sandboxStep(deps, scope, id, now))) steps++;
  return steps;
}

/**
 * Brings every open subscription of `environment` (of one workspace, when given) up to date; how
 * many steps it took. A subscription that fails is left for the next round and the others go on;
 * the first error is thrown at the end so the round is reported.
 */
export async function runSubscriptionCycles(
  deps: Deps,
  filter: { environment?: Environment; workspaceId?: string } = {},
): Promise<number> {
  let handled = 0;
  let firstError: unknown;
  for (const environment of filter.environment ? [filter.environment] : (['sandbox', 'live'] as const)) {
    let afterId: string | null = null;
    for (;;) {
      const rows = await openSubscriptions(deps.db, {
        environment,
        workspaceId: filter.workspaceId,
        afterId,
        limit: PAGE,
      });
      for (const row of rows) {
        try {
          handled +=
            environment === 'live'
              ? await syncLiveSubscription(deps, row)
              : await advanceSandbox(deps, { workspaceId: row.workspace_id, environment }, row.id);
        } catch (error) {
          firstError ??= error;
        }
      }
      if (rows.length < PAGE) break;
      afterId = rows[rows.length - 1]!.id;
    }
  }
  if (firstError) throw firstError;
  return handled;
}

/** The sandbox cycles of one workspace, run now (the simulator's run-cycles). */
export async function runWorkspaceCycles(deps: Deps, caller: { workspaceId: string }) {
  return {
    steps: await runSubscriptionCycles(deps, { environment: 'sandbox', workspaceId: caller.workspaceId }),
  };
}

export const subscriptionCycles: BackgroundTask = {
  name: 'subscription-cycles',
  intervalMs: 60_000,
  // A busy round means progress, not more work to do at once: the next round waits its interval.
  run: async (deps) => {
    await runSubscriptionCycles(deps);
    return 0;
  },
};
