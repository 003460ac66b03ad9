import type { Deps } from '../../../platform/context.ts';
import {
  closeSettledElsewhere,
  eachApart,
  SetAsideError,
  waitingSetAside,
} from '../../../platform/set-aside.ts';
import type { BackgroundTask } from '../../../platform/tasks.ts';
import { expireCharge, stillCreated } from '../charge-payment.ts';
import { dueChargeIdsAmong } from '../due-charges-repo.ts';
import { applyPspReturns } from '../med-returns.ts';
import { settleCharge } from './receive.ts';
import { CHARGE_POLL, liveChargesAwaiting, liveChargesPaidSince } from './repo.ts';

const ROUND = 50;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';
let cursor = FIRST_ID;

/**
 * The fallback when a PSP's notification never comes: asks the PSP (GET /cob/{txid}) about live
 * charges still waiting, a few at a time in id order, round-robin, and credits those paid through
 * the notification's own path, so a late notification finds them settled and moves nothing; those
 * past expires_at that the PSP shows unpaid expire here.
 */
export async function pollLiveCharges(deps: Deps): Promise<number> {
  if (!deps.providers.has('pix', 'live')) return 0;
  const provider = deps.providers.get('pix', 'live');
  if (!provider.getCharge) return 0;
  const waiting = await waitingSetAside(deps.db, CHARGE_POLL, deps.clock.now());
  const found = await liveChargesAwaiting(deps.db, cursor, ROUND, waiting);
  cursor = found.length < ROUND ? FIRST_ID : found.at(-1)!.id;
  // A charge with a due date asks the day's amount, not its original: the due-charge poll alone
  // credits (or sets aside) it and expires it.
  const dueDated = new Set(await dueChargeIdsAmong(deps.db, found));
  const charges = found.filter((charge) => !dueDated.has(charge.id));
  // One charge that throws (an answer that cannot be read, a credit refused) is set aside: it
  // would otherwise stop every round at the same place, before the charges after it.
  const failures = await eachApart(
    deps.db,
    CHARGE_POLL,
    charges,
    (charge) => ({ key: charge.id, environment: 'live', workspaceId: charge.workspace_id, payload: charge }),
    async (charge) => {
      const state = await provider.getCharge!(charge.pix_txid);
      const pix =
        state?.status === 'paid'
          ? state.payments.find((p) => p.amountMinor === charge.amount_minor)
          : undefined;
      if (pix) {
        await settleCharge(deps, provider.name, charge, pix.endToEndId, {
          source: 'poll',
          txid: charge.pix_txid,
          endToEndId: pix.endToEndId,
        });
        await applyPspReturns(deps, charge, pix);
      } else if (state?.status !== 'paid' && charge.expires_at && charge.expires_at <= deps.clock.now())
        await expireCharge(deps, charge.workspace_id, 'live', charge.id);
    },
    () => deps.clock.now(),
  );
  await closeSettledElsewhere(deps.db, CHARGE_POLL, stillCreated(deps.db), deps.clock.now());
  if (failures.length > 0) throw new SetAsideError(CHARGE_POLL, failures);
  return 0;
}

export const pixChargePoll: BackgroundTask = {
  name: 'pix-charge-poll',
  intervalMs: 30_000,
  run: pollLiveCharges,
};

/** How far back the returns poll looks: a MED return may come up to 80 days after the PIX. */
const MED_WINDOW_MS = 90 * 24 * 3600_000;
/** Where the returns poll sets aside a charge it cannot read or apply (set_aside_items.source). */
export const RETURNS_POLL = 'pix-returns-poll';
let returnsCursor = FIRST_ID;

/**
 * The fallback when a MED devolução's notification never comes: asks the PSP (GET /cob/{txid}, or
 * GET /pix/{e2eid} for a Pix Automático cycle) about live charges and cycles paid within the MED window, a round at a time, round-robin, and applies the
 * devoluções it shows through the one path the notification takes, so either finds the other's
 * work done and moves nothing.
 */
export async function pollLiveChargeReturns(deps: Deps): Promise<number> {
  if (!deps.providers.has('pix', 'live')) return 0;
  const provider = deps.providers.get('pix', 'live');
  if (!provider.getCharge) return 0;
  const since = new Date(deps.clock.now().getTime() - MED_WINDOW_MS);
  const charges = await liveChargesPaidSince(deps.db, returnsCursor, ROUND, since);
  returnsCursor = charges.length < ROUND ? FIRST_ID : charges.at(-1)!.id;
  let applied = 0;
  const failures = await eachApart(
    deps.db,
    RETURNS_POLL,
    charges,
    (charge) => ({ key: charge.id, environment: 'live', workspaceId: charge.workspace_id, payload: charge }),
    async (charge) => {
      // A cycle's cobr is no cob: its PIX, named when the cycle was credited, is asked for itself.
      if (charge.kind === 'pix_automatic') {
        const pix = charge.pix_tx_id ? await provider.getReceivedPix?.(charge.pix_tx_id) : undefined;
        if (pix) applied += await applyPspReturns(deps, charge, pix);
        return;
      }
      const state = await provider.getCharge!(charge.pix_txid);
      for (const pix of state?.payments ?? []) applied += await applyPspReturns(deps, charge, pix);
    },
    () => deps.clock.now(),
  );
  if (failures.length > 0) throw new SetAsideError(RETURNS_POLL, failures);
  return applied;
}

export const pixReturnsPoll: BackgroundTask = {
  name: 'pix-returns-poll',
  intervalMs: 60_000,
  run: pollLiveChargeReturns,
};
