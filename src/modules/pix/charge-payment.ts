/** A charge is paid (net to the party, fee to fee revenue) or expires unpaid. */
import { pipelined, type Queryable, type Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import type { Currency } from '../../ledger/currency.ts';
import { postDistribution } from '../../ledger/distribution.ts';
import type { Deps, Environment } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import {
  closeSettledElsewhere,
  eachApart,
  notWaitingSql,
  SetAsideError,
  waitingSetAside,
} from '../../platform/set-aside.ts';
import { endToEndId } from '../../providers/pix/end-to-end-id.ts';
import { recordSandboxReceived, SANDBOX_ISPB } from '../../providers/pix/sandbox.ts';
import { announceCheckoutPaid, checkoutSettlement } from '../links/service.ts';
import {
  lockPayment,
  type PaymentRow,
  type PaymentScope,
  paymentsStillIn,
  repriceWaitingCharge,
  transition,
} from '../payments/service.ts';
import { feeFor } from './fees.ts';
import { recoverPartyDebt } from './med-returns.ts';

/**
 * A buyer pays a cash-in charge: the net amount to the party, the fee to fee revenue, completed, in
 * one journal. A charge started on a payment link's page shares its net by the split frozen with it
 * when it was created (the links module says how), the link's owner keeping the rest. A live PSP's
 * notification names the PIX's end-to-end id; the sandbox makes one up.
 */
export async function payCharge(
  tx: Tx,
  deps: Deps,
  scope: PaymentScope,
  id: string,
  pixEndToEndId?: string,
  /** What was paid, when it is not the charge's amount: a due-date charge's amount due on the day. */
  received: { amountMinor?: bigint } = {},
) {
  // A PIX the PSP confirmed was paid before the PSP's own expiry, however late its word reaches us.
  const pspConfirmed = pixEndToEndId !== undefined;
  let row = await lockPayment(tx, scope, id);
  if (row.kind !== 'pix_cash_in')
    throw new AppError('invalid_state', 'Only a PIX charge (pix_cash_in) can be paid.');
  const at = deps.clock.now();
  if (row.status !== 'created') throw new AppError('invalid_state', `A ${row.status} charge cannot be paid.`);
  if (!pspConfirmed && row.expires_at && row.expires_at <= at)
    throw new AppError('invalid_state', 'The charge has expired.');
  if (received.amountMinor !== undefined && received.amountMinor !== row.amount_minor)
    row = await reprice(tx, scope, row, received.amountMinor, at);
  const currency = row.currency as Currency;
  const net = row.amount_minor - row.fee_minor;
  const checkout = await checkoutSettlement(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    id: row.id,
    partyId: row.party_id,
    net,
  });
  const parts = checkout?.parts ?? [{ partyId: row.party_id, amount: net }];
  const distributed = postDistribution(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    referenceType: 'payment',
    referenceId: row.id,
    at,
    from: systemAccount.pixSettlement(row.workspace_id, row.environment),
    recipients: parts.map((part) => ({
      account: partyAccount(row.workspace_id, row.environment, part.partyId, currency, 'available'),
      amount: part.amount,
    })),
    fee: {
      account: systemAccount.feeRevenue(row.workspace_id, row.environment, currency),
      amount: row.fee_minor,
    },
  });
  // What a party owes of a MED return is paid first from what it just received; its debts are asked
  // for right behind the credit, on the same connection.
  const recovering = (async () => {
    for (const part of parts)
      await recoverPartyDebt(
        tx,
        deps,
        { workspaceId: row.workspace_id, environment: row.environment, partyId: part.partyId },
        { justCredited: distributed },
      );
  })();
  await pipelined(distributed, recovering);
  const e2e = pixEndToEndId ?? (await sandboxReceived(tx, row, at));
  const paid = await transition(tx, scope, row.id, 'completed', { pix_tx_id: e2e }, { at });
  if (checkout) await announceCheckoutPaid(tx, paid, checkout, at);
  return paid;
}

/** A sandbox charge is paid by a PIX the sandbox PSP receives: it records it, as its GET /pix lists it. */
async function sandboxReceived(
  tx: Tx,
  row: { workspace_id: string; pix_txid: string | null; amount_minor: bigint },
  at: Date,
): Promise<string> {
  const e2e = endToEndId(SANDBOX_ISPB, at);
  await recordSandboxReceived(tx, {
    workspaceId: row.workspace_id,
    endToEndId: e2e,
    txid: row.pix_txid,
    amountMinor: row.amount_minor,
    at,
  });
  return e2e;
}

/** A charge paid another amount than its own (a due-date charge): its amount and fee follow. */
async function reprice(tx: Tx, scope: PaymentScope, row: PaymentRow, amount: bigint, at: Date) {
  const fee = await feeFor(tx, row.workspace_id, row.environment, 'pix_cash_in', amount);
  // The fee never takes more than what was paid.
  return repriceWaitingCharge(tx, scope, row.id, { amount, fee: fee < amount ? fee : amount, at });
}

/** Where the expiry sweep sets aside a charge it cannot expire (set_aside_items.source). */
export const CHARGE_EXPIRY = 'pix-charge-expiry';
/** Of the charges set aside (their keys are their ids), those still waiting: neither paid nor expired. */
export const stillCreated = (q: Queryable) => (keys: string[]) => paymentsStillIn(q, keys, ['created']);

/**
 * Expires unpaid charges past expires_at, oldest first. A live charge at a PSP is left to the charge
 * poll, which expires it once the PSP shows it unpaid (it may have been paid just in time). A charge
 * that cannot be expired is set aside and the sweep goes on (it would otherwise come first in every
 * round); it comes back when its retry is due.
 */
export async function expireDueCharges(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const waiting = await waitingSetAside(deps.db, CHARGE_EXPIRY, now);
  const { rows } = await deps.db.query<{ id: string; workspace_id: string; environment: Environment }>(
    `SELECT id, workspace_id, environment FROM payments
      WHERE status = 'created' AND kind = 'pix_cash_in' AND expires_at <= $1
        AND NOT (environment = 'live' AND pix_txid IS NOT NULL)
        AND ${notWaitingSql('id::text', '$2')}
      ORDER BY expires_at LIMIT 100`,
    [now, waiting],
  );
  const failures = await eachApart(
    deps.db,
    CHARGE_EXPIRY,
    rows,
    (row) => ({ key: row.id, environment: row.environment, workspaceId: row.workspace_id, payload: row }),
    (row) => expireCharge(deps, row.workspace_id, row.environment, row.id),
    () => deps.clock.now(),
  );
  await closeSettledElsewhere(deps.db, CHARGE_EXPIRY, stillCreated(deps.db), deps.clock.now());
  if (failures.length > 0) throw new SetAsideError(CHARGE_EXPIRY, failures);
  return rows.length;
}

/** A charge still waiting becomes expired. */
export async function expireCharge(deps: Deps, workspaceId: string, environment: Environment, id: string) {
  await deps.db.transaction(async (tx) => {
    const scope = { workspaceId, environment };
    const current = await lockPayment(tx, scope, id);
    if (current.status === 'created')
      await transition(tx, scope, id, 'expired', {}, { at: deps.clock.now() });
  });
}
