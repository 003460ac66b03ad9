/**
 * The daily reconciliation: once the São Paulo day is over, that day of each environment's PIX books
 * is compared with its PSP. The run is stored whatever it finds (its row under the nil workspace at
 * least), so finding that row is how a later round, or another worker, knows the day is done.
 */
import type { Deps, Environment } from '../../../platform/context.ts';
import type { BackgroundTask } from '../../../platform/tasks.ts';
import { DEFAULT_TIME_ZONE, localDateOf, startOfLocalDay } from '../../../platform/time-zone.ts';
import { dailyRunExists, latestDailyRun } from './repo.ts';
import { reconcile } from './service.ts';

/** The local day before the one `now` is in, as [its first instant, the next day's first instant). */
export function previousLocalDay(now: Date, zone = DEFAULT_TIME_ZONE): { from: Date; to: Date } {
  const to = startOfLocalDay(dateOf(now, zone), zone);
  return { from: startOfLocalDay(dateOf(new Date(to.getTime() - 12 * 3600_000), zone), zone), to };
}

function dateOf(at: Date, zone: string) {
  const [year, month, day] = localDateOf(at, zone).split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

/** How long after the day ends its daily run waits: late notifications and polls land first. */
const SETTLE_MS = 60 * 60_000;

/** Days a stopped worker catches up on when it starts again; older ones are an operator's (`lastro reconcile`). */
const CATCH_UP_DAYS = 7;

/**
 * Reconciles yesterday in each environment whose PSP lists what it received, once, and every day
 * since the last daily run that none reconciled (a worker that was down), up to a week back.
 */
export async function reconcileYesterday(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const yesterday = previousLocalDay(now);
  // A PIX of 23:59 whose notification is still on its way is not a finding: the day settles first.
  if (now.getTime() < yesterday.to.getTime() + SETTLE_MS) return 0;
  let ran = 0;
  let failure: unknown;
  for (const environment of ['live', 'sandbox'] as Environment[]) {
    if (!deps.providers.has('pix', environment)) continue;
    if (!deps.providers.get('pix', environment).listReceived) continue;
    for (const window of await daysToReconcile(deps, environment, yesterday)) {
      if (await dailyRunExists(deps.db, environment, window.from)) continue;
      // One environment's PSP being away does not keep the other's day from being reconciled.
      try {
        await reconcile(deps, { environment, ...window, trigger: 'daily' });
        ran += 1;
      } catch (error) {
        failure ??= error;
        break; // the later days wait for this one: the next round starts again from it
      }
    }
  }
  if (failure) throw failure;
  return ran;
}

/** Yesterday, after the days since the last daily run, oldest first (only yesterday on a first run). */
async function daysToReconcile(deps: Deps, environment: Environment, yesterday: { from: Date; to: Date }) {
  const latest = await latestDailyRun(deps.db, environment);
  const days = [yesterday];
  while (latest && days.length < CATCH_UP_DAYS) {
    const before = previousLocalDay(days[0]!.from);
    if (before.from.getTime() <= latest.getTime()) break;
    days.unshift(before);
  }
  return days;
}

export const dailyReconciliation: BackgroundTask = {
  name: 'pix-daily-reconciliation',
  intervalMs: 15 * 60_000,
  run: async (deps) => {
    await reconcileYesterday(deps);
    // A round that ran is not a reason to run again at once: the next day is a day away.
    return 0;
  },
};
