/**
 * A dispute that opened when the party's available BRL could not cover it holds the rest as soon as
 * money comes in: whatever reaches available later (a cash-in, a payout that failed, a conversion)
 * is moved to locked, up to the disputed amount, so it cannot be converted or paid out meanwhile.
 */
import { lockBalance, partyAccount } from '../../ledger/accounts.ts';
import type { Deps } from '../../platform/context.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import { moveHold } from './open.ts';
import { addHeld, type DisputeRow, findDispute, partlyHeld } from './repo.ts';
import { disputeView } from './view.ts';

const ROUND = 100;

/** Holds what the party's available has now of what the dispute still lacks; true when it held some. */
async function topUp(deps: Deps, candidate: DisputeRow): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const scope = { workspaceId: candidate.workspace_id, environment: candidate.environment };
    const owner = { ...scope, partyId: candidate.party_id };
    // The gate and the balance first, then the dispute: the order every writer of the books takes.
    const available = await lockBalance(
      tx,
      partyAccount(owner.workspaceId, owner.environment, owner.partyId, 'BRL', 'available'),
    );
    const row = await findDispute(tx, scope, candidate.id, true);
    if (!row || (row.status !== 'open' && row.status !== 'under_review')) return false;
    const lacking = row.amount_minor - row.held_minor;
    const added = available < lacking ? available : lacking;
    if (added <= 0n) return false;
    const at = deps.clock.now();
    await moveHold(tx, owner, row.id, added, 'hold', at);
    const updated = await addHeld(tx, row, added, at);
    if (!updated) throw new Error(`dispute ${row.id} changed under its lock`);
    await emitEvent(tx, { ...scope, type: 'dispute.updated', object: disputeView(updated), at });
    return true;
  });
}

/**
 * One round over all the open disputes that hold less than their amount, a page at a time: the
 * disputes of parties that have nothing must not keep the others from their turn. Returns how many
 * held more.
 */
export async function topUpHolds(deps: Deps, page = ROUND): Promise<number> {
  let held = 0;
  let after: string | null = null;
  for (;;) {
    const rows = await partlyHeld(deps.db, page, after);
    for (const row of rows) if (await topUp(deps, row)) held++;
    if (rows.length < page) return held;
    after = rows[rows.length - 1]!.id;
  }
}

export const disputeHoldTopUp: BackgroundTask = {
  name: 'dispute-hold-top-up',
  intervalMs: 30_000,
  run: (deps) => topUpHolds(deps),
};
