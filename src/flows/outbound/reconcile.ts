/**
 * The sweep that re-asks the provider about transfers no job is moving any more: left in processing
 * (a lost poll, a restart), or still created after their send job was parked (it failed every
 * attempt). A transfer the provider does not know is sent again when it was processing (the
 * provider is idempotent on the payment id), and failed, with its money returned, only when it never
 * left `created` and its job was parked long enough ago that no attempt can still be in flight.
 * A transfer whose reconciliation throws is set aside (platform/set-aside.ts) and the others are
 * still looked at; the sweep finds it again once its retry is due.
 */
import {
  findPayment,
  findStaleTransfers,
  paymentsStillIn,
  type StaleTransferRow,
} from '../../modules/payments/service.ts';
import type { Deps } from '../../platform/context.ts';
import { closeSettledElsewhere, eachApart, SetAsideError } from '../../platform/set-aside.ts';
import { jobOf, type Outbound, type OutboundRail, scopeOf } from './rail.ts';
import { sendTransfer } from './run.ts';
import { recordOutcome } from './settle.ts';

/** How long a transfer sits unchanged before the sweep looks at it: its jobs are moving it until then. */
const QUIET_MS = 5 * 60_000;
/** How long after its send job was parked a transfer may be failed: longer than any provider call. */
const PARKED_GRACE_MS = 10 * 60_000;

/** The sweep's task name, which is also the source of what it sets aside. */
export const reconcileSource = (rail: OutboundRail) => `${rail.jobPrefix}-reconcile`;

/**
 * One round of the sweep. Returns how many transfers it moved (settled, failed, or on to
 * processing): those leave the sweep's list, so a busy round runs again at once on what is left,
 * while a transfer only asked about again, still settling, is not counted and waits for the next
 * round.
 */
export async function reconcile(flow: Outbound, deps: Deps): Promise<number> {
  const source = reconcileSource(flow.rail);
  const now = deps.clock.now().getTime();
  const candidates = await findStaleTransfers(deps.db, {
    kinds: [...flow.kinds],
    updatedBefore: new Date(now - QUIET_MS),
    parkedBefore: new Date(now - PARKED_GRACE_MS),
    setAsideSource: source,
    now: new Date(now),
  });
  let handled = 0;
  const failures = await eachApart(
    deps.db,
    source,
    candidates,
    (c) => ({ key: c.id, environment: c.environment, workspaceId: c.workspace_id, payload: c }),
    async (candidate) => {
      if (await reconcileOne(flow, deps, candidate)) handled += 1;
    },
    () => deps.clock.now(),
  );
  const stillOpen = (keys: string[]) => paymentsStillIn(deps.db, keys, ['created', 'processing']);
  await closeSettledElsewhere(deps.db, source, stillOpen, deps.clock.now());
  if (failures.length > 0) throw new SetAsideError(source, failures);
  return handled;
}

/** Asks the provider about one transfer and records what it says; returns whether the payment moved. */
async function reconcileOne(flow: Outbound, deps: Deps, candidate: StaleTransferRow): Promise<boolean> {
  const job = jobOf(candidate);
  if (!deps.providers.has(flow.rail.provider, candidate.environment)) return false;
  const row = await findPayment(deps.db, scopeOf(job), job.paymentId);
  if (!row) return false;
  const result = await flow.rail.status(deps, row);
  if (result.status === 'unknown') {
    if (candidate.status === 'processing') return (await sendTransfer(flow, deps, job)).moved;
    return recordOutcome(flow, deps, job, { status: 'failed', failureReason: 'provider_unreachable' });
  }
  // Still settling at the provider: the next round asks again (no second poll job is queued).
  if (result.status === 'processing' && candidate.status === 'processing') return false;
  return recordOutcome(flow, deps, job, result);
}
