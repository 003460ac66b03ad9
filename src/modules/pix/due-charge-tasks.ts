/**
 * Background work of due-date charges. In sandbox, charges of a workspace whose clock runs ahead
 * expire by that clock (the cash-in expiry sweep handles the rest by real time). In live, a poll asks
 * the PSP (GET /cobv/{txid}) about charges still waiting: one paid is credited what the PSP reports
 * (pix[].valor) when that is the amount due on the day it was paid (São Paulo), else set aside for an
 * operator; one unpaid past its last day expires.
 */
import type { Deps } from '../../platform/context.ts';
import {
  closeSettledElsewhere,
  eachApart,
  SetAsideError,
  type SetAsideFailure,
  waitingSetAside,
} from '../../platform/set-aside.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import { localDateOf } from '../../platform/time-zone.ts';
import type { DueChargeState } from '../../providers/pix/due-charge-api.ts';
import { fillMissingBrCode } from '../payments/service.ts';
import { sandboxClocksAhead } from '../test-clock/index.ts';
import { expireCharge, payCharge, stillCreated } from './charge-payment.ts';
import { amountDue } from './due-amount.ts';
import { ZONE } from './due-charges.ts';
import {
  findDueCharge,
  type LiveDueCharge,
  liveDueChargesWaiting,
  sandboxDueChargesEnded,
} from './due-charges-repo.ts';
import { recordDueChargePaid } from './due-paid-repo.ts';

/** Where the sandbox expiry sets aside a charge it cannot expire (set_aside_items.source). */
export const SANDBOX_DUE_EXPIRY = 'pix-due-charge-sandbox-expiry';

/**
 * Sandbox charges past their last day by their workspace's sandbox clock. One that cannot be expired
 * is set aside and the others, of its workspace and the next, go on; it is tried again when its retry
 * is due, never again in front of them.
 */
export async function expireSandboxDueCharges(deps: Deps): Promise<number> {
  let expired = 0;
  const failures: SetAsideFailure[] = [];
  const waiting = await waitingSetAside(deps.db, SANDBOX_DUE_EXPIRY, deps.clock.now());
  for (const { workspaceId, clock } of await sandboxClocksAhead(deps.db, deps.clock)) {
    const ended = await sandboxDueChargesEnded(deps.db, workspaceId, clock.now(), waiting);
    const failed = await eachApart(
      deps.db,
      SANDBOX_DUE_EXPIRY,
      ended,
      (id) => ({ key: id, environment: 'sandbox', workspaceId, payload: { id } }),
      async (id) => {
        await expireCharge(deps, workspaceId, 'sandbox', id);
        expired++;
      },
      () => deps.clock.now(),
    );
    failures.push(...failed);
  }
  // One set aside then paid, or expired by another path, is no longer waiting: closed, not retried.
  await closeSettledElsewhere(deps.db, SANDBOX_DUE_EXPIRY, stillCreated(deps.db), deps.clock.now());
  if (failures.length > 0) throw new SetAsideError(SANDBOX_DUE_EXPIRY, failures);
  return expired;
}

/** Where the live poll sets aside a charge it cannot credit (set_aside_items.source). */
export const DUE_CHARGE_POLL = 'pix-due-charge-poll';
const ROUND = 50;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';
let cursor = FIRST_ID;

/** A PIX the PSP received on a live due-date charge: credited when it is what the day asked. */
async function settlePaid(
  deps: Deps,
  charge: LiveDueCharge,
  pix: DueChargeState['payments'][number],
): Promise<void> {
  const scope = { workspaceId: charge.workspace_id, environment: 'live' as const };
  const row = await findDueCharge(deps.db, scope, charge.id);
  if (!row || pix.amountMinor === undefined)
    throw new Error(`cobv ${charge.pix_txid}: the PSP's PIX has no amount`);
  const day = localDateOf(pix.receivedAt ?? deps.clock.now(), ZONE);
  const due = amountDue(
    { nominalMinor: row.nominal_minor, dueDate: row.due_date, terms: row.terms },
    day,
  ).total_minor;
  if (pix.amountMinor !== due)
    throw new Error(
      `cobv ${charge.pix_txid}: the PSP received ${pix.amountMinor}, the amount due on ${day} is ${due}`,
    );
  await deps.db.transaction(async (tx) => {
    await payCharge(tx, deps, scope, charge.id, pix.endToEndId, { amountMinor: due });
    await recordDueChargePaid(tx, scope, charge.id, { day, amountMinor: due });
  });
}

export async function pollLiveDueCharges(deps: Deps): Promise<number> {
  const api = deps.providers.has('pix', 'live') ? deps.providers.get('pix', 'live').dueCharges : undefined;
  if (!api) return 0;
  const found = await liveDueChargesWaiting(deps.db, cursor, ROUND);
  cursor = found.length < ROUND ? FIRST_ID : found.at(-1)!.id;
  // A charge set aside is asked again only when its retry is due.
  const waiting = new Set(await waitingSetAside(deps.db, DUE_CHARGE_POLL, deps.clock.now()));
  const charges = found.filter((charge) => !waiting.has(charge.id));
  let settled = 0;
  const failures = await eachApart(
    deps.db,
    DUE_CHARGE_POLL,
    charges,
    (charge) => ({ key: charge.id, environment: 'live', workspaceId: charge.workspace_id, payload: charge }),
    async (charge) => {
      const state = await api.get(charge.pix_txid);
      if (state?.brCode && !charge.pix_qr_code)
        await fillMissingBrCode(
          deps.db,
          { workspaceId: charge.workspace_id, id: charge.id },
          state.brCode,
          state.locId ?? charge.pix_txid,
        );
      const pix = state?.status === 'paid' ? state.payments[0] : undefined;
      if (pix) {
        await settlePaid(deps, charge, pix);
        settled++;
      } else if (state?.status !== 'paid' && charge.expires_at && charge.expires_at <= deps.clock.now())
        await expireCharge(deps, charge.workspace_id, 'live', charge.id);
    },
    () => deps.clock.now(),
  );
  if (failures.length > 0) throw new SetAsideError(DUE_CHARGE_POLL, failures);
  return settled;
}

export const dueChargeTasks: BackgroundTask[] = [
  { name: 'pix-due-charge-sandbox-expiry', intervalMs: 5_000, run: expireSandboxDueCharges },
  { name: 'pix-due-charge-poll', intervalMs: 30_000, run: pollLiveDueCharges },
];
