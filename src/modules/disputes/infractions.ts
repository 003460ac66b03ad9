/**
 * Live: the PSP's MED infraction list, polled (Efí GET /v2/gn/infracoes, src/providers/pix/efi/
 * infractions.ts). An infraction on one of our cash-ins opens its dispute (holding the amount); once
 * the PSP decides, the dispute closes: accepted → returned (the MED devoluções the PSP shows on the PIX
 * are applied under their own ids, so the PIX module's polls find them applied), rejected or cancelled
 * → rejected. An infraction on a PIX that is none of our cash-ins is left alone.
 */

import type { Tx } from '../../db/types.ts';
import type { Deps } from '../../platform/context.ts';
import { emitEvent } from '../../platform/outbox.ts';
import { eachApart, SetAsideError } from '../../platform/set-aside.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import type { Infraction, PixProvider } from '../../providers/pix/provider.ts';
import { cashInsNamed, type MedNatureza } from '../pix/index.ts';
import { closeDispute, type PspMedReturn } from './close.ts';
import { openDispute } from './open.ts';
import { type DisputeRow, findByInfraction, markUnderReview } from './repo.ts';
import { disputeView } from './view.ts';

/** How far back the poll asks: a MED analysis runs for days, its decision may come weeks later. */
export const INFRACTION_WINDOW_MS = 60 * 24 * 3600_000;
export const INFRACTION_POLL = 'dispute-infraction-poll';
const MED = new Set(['MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO']);

/** The MED devoluções the PSP completed on the PIX, read outside any transaction. */
async function pspReturnsOf(provider: PixProvider, endToEndId: string): Promise<PspMedReturn[]> {
  const pix = await provider.getReceivedPix?.(endToEndId);
  return (pix?.returns ?? [])
    .filter((r) => MED.has(r.natureza) && r.status === 'completed' && r.amountMinor !== undefined)
    .map((r) => ({
      returnId: r.id,
      rtrId: r.rtrId ?? null,
      amountMinor: r.amountMinor!,
      natureza: r.natureza as MedNatureza,
    }));
}

/** The last day an infraction is in the poll's window: an acceptance closes then, devolução seen or not. */
const LAST_DAY_MS = 24 * 3600_000;

/**
 * An infraction accepted before its devolução shows on the PIX keeps its dispute's hold: released now,
 * the money would be available to pay out and the devolução, seen later, a debt. It waits as long as
 * the poll still sees the infraction, then closes as it is.
 */
function awaitingReturn(
  infraction: Infraction,
  pspReturns: readonly PspMedReturn[],
  knownOpenedAt: Date | undefined,
  now: Date,
): boolean {
  if (infraction.status !== 'accepted' || pspReturns.length > 0) return false;
  const openedAt = infraction.openedAt ?? knownOpenedAt ?? now;
  return now.getTime() - openedAt.getTime() < INFRACTION_WINDOW_MS - LAST_DAY_MS;
}

/**
 * The PSP has a defense (EM_DEFESA) the dispute never recorded: sent by a request whose record was
 * lost after the PSP took it. The dispute follows the PSP (under review, no more deadline notices).
 */
async function mirrorDefense(tx: Tx, row: DisputeRow, at: Date): Promise<boolean> {
  const moved = await markUnderReview(tx, row, at);
  if (!moved) return false;
  const scope = { workspaceId: row.workspace_id, environment: row.environment };
  await emitEvent(tx, { ...scope, type: 'dispute.updated', object: disputeView(moved), at });
  return true;
}

async function applyInfraction(deps: Deps, provider: PixProvider, infraction: Infraction): Promise<boolean> {
  const [cashIn] = await cashInsNamed(deps.db, 'live', [infraction.endToEndId], []);
  if (!cashIn) return false;
  const scope = { workspaceId: cashIn.workspace_id, environment: 'live' as const };
  const known = await findByInfraction(deps.db, scope, infraction.id);
  const decided =
    infraction.status === 'accepted' || infraction.status === 'rejected' || infraction.status === 'cancelled';
  if (known && (known.status === 'closed_returned' || known.status === 'closed_rejected')) return false;
  if (
    !known &&
    infraction.status !== 'open' &&
    infraction.status !== 'under_review' &&
    infraction.status !== 'accepted'
  )
    return false;
  const pspReturns =
    infraction.status === 'accepted' ? await pspReturnsOf(provider, infraction.endToEndId) : [];
  const waiting = awaitingReturn(infraction, pspReturns, known?.opened_at, deps.clock.now());
  return deps.db.transaction(async (tx) => {
    const at = deps.clock.now();
    const { row, created } = await openDispute(tx, deps, scope, {
      paymentId: cashIn.id,
      infractionId: infraction.id,
      reason: infraction.reason,
      amountMinor: infraction.amountMinor,
      openedAt: infraction.openedAt ?? at,
      deadlineAt: infraction.deadlineAt,
    });
    if (infraction.status === 'under_review' && row.status === 'open')
      return (await mirrorDefense(tx, row, at)) || created;
    if (!decided || waiting) return created;
    const outcome = infraction.status === 'accepted' ? 'returned' : 'rejected';
    const { closed } = await closeDispute(tx, deps, scope, { disputeId: row.id, outcome, at, pspReturns });
    return created || closed;
  });
}

/** One poll of the live PSP's infractions; returns how many disputes it opened or closed. */
export async function pollLiveInfractions(deps: Deps): Promise<number> {
  if (!deps.providers.has('pix', 'live')) return 0;
  const provider = deps.providers.get('pix', 'live');
  if (!provider.listInfractions) return 0;
  const now = deps.clock.now().getTime();
  // The window ends a minute ahead: an infraction stamped by a PSP whose clock runs ahead is not missed.
  const infractions = await provider.listInfractions({
    from: new Date(now - INFRACTION_WINDOW_MS),
    to: new Date(now + 60_000),
  });
  let changed = 0;
  const failures = await eachApart(
    deps.db,
    INFRACTION_POLL,
    infractions,
    (infraction) => ({ key: infraction.id, environment: 'live', payload: infraction }),
    async (infraction) => {
      if (await applyInfraction(deps, provider, infraction)) changed++;
    },
    () => deps.clock.now(),
  );
  if (failures.length > 0) throw new SetAsideError(INFRACTION_POLL, failures);
  return changed;
}

export const liveInfractionPoll: BackgroundTask = {
  name: INFRACTION_POLL,
  intervalMs: 60_000,
  run: pollLiveInfractions,
};
