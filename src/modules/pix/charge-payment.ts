/** A charge is paid (net to the party, fee to fee revenue) or expires unpaid. */
import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import type { Currency } from '../../ledger/currency.ts';
import { postDistribution } from '../../ledger/distribution.ts';
import type { Deps, Environment } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { endToEndId } from '../../providers/pix/end-to-end-id.ts';
import { SANDBOX_ISPB } from '../../providers/pix/sandbox.ts';
import { lockPayment, type PaymentScope, transition } from '../payments/service.ts';

/** A buyer pays a cash-in charge: net amount to the party, fee to fee revenue, completed. */
export async function payCharge(tx: Tx, deps: Deps, scope: PaymentScope, id: string) {
  const row = await lockPayment(tx, scope, id);
  if (row.kind !== 'pix_cash_in')
    throw new AppError('invalid_state', 'Only a PIX charge (pix_cash_in) can be paid.');
  const at = deps.clock.now();
  if (row.status !== 'created') throw new AppError('invalid_state', `A ${row.status} charge cannot be paid.`);
  if (row.expires_at && row.expires_at <= at) throw new AppError('invalid_state', 'The charge has expired.');
  const currency = row.currency as Currency;
  await postDistribution(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    referenceType: 'payment',
    referenceId: row.id,
    at,
    from: systemAccount.pixSettlement(row.workspace_id, row.environment),
    recipients: [
      {
        account: partyAccount(row.workspace_id, row.environment, row.party_id, currency, 'available'),
        amount: row.amount_minor - row.fee_minor,
      },
    ],
    fee: {
      account: systemAccount.feeRevenue(row.workspace_id, row.environment, currency),
      amount: row.fee_minor,
    },
  });
  return transition(tx, scope, row.id, 'completed', { pix_tx_id: endToEndId(SANDBOX_ISPB, at) }, { at });
}

/** Charges left unpaid past expires_at become expired. */
export async function expireDueCharges(deps: Deps): Promise<number> {
  const { rows } = await deps.db.query<{ id: string; workspace_id: string; environment: Environment }>(
    `SELECT id, workspace_id, environment FROM payments
      WHERE status = 'created' AND kind = 'pix_cash_in' AND expires_at <= $1 ORDER BY expires_at LIMIT 100`,
    [deps.clock.now()],
  );
  for (const row of rows) {
    await deps.db.transaction(async (tx) => {
      const scope = { workspaceId: row.workspace_id, environment: row.environment };
      const current = await lockPayment(tx, scope, row.id);
      if (current.status === 'created')
        await transition(tx, scope, row.id, 'expired', {}, { at: deps.clock.now() });
    });
  }
  return rows.length;
}
