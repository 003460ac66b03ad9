import type { Tx } from '../../db/types.ts';
import type { Currency } from '../../ledger/currency.ts';
import { parseAmount } from '../../ledger/currency.ts';
import { debitOfField } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { assertMayMoveMoney } from '../parties/service.ts';
import { lockPayment } from '../payments/service.ts';
import { returnedOfCharge } from './repo.ts';
import { pixTransfers } from './transfers.ts';

const REFUND_WINDOW_MS = 90 * 24 * 3600_000;

const nothingLeft = () =>
  new AppError('invalid_state', 'The charge is fully refunded; nothing remains to refund.');

/**
 * Refunds (part of) a completed PIX cash-in: a new pix_refund payment that takes the amount from
 * the party's available balance into locked, then goes through the provider like a payout. The
 * original is locked first, so concurrent refunds cannot together exceed what was received.
 */
export async function createRefund(
  tx: Tx,
  ctx: Ctx,
  input: { payment_id: string; amount_minor?: string; description?: string },
) {
  const { caller, deps, idempotencyKey } = ctx;
  const originalId = input.payment_id;
  const scope = { workspaceId: caller.workspaceId, environment: caller.environment, partyId: caller.partyId };
  const original = await lockPayment(tx, scope, originalId);
  await assertMayMoveMoney(tx, original.workspace_id, original.party_id);
  if (original.kind === 'pix_cash_in' && original.status === 'refunded') throw nothingLeft();
  if (original.kind !== 'pix_cash_in' || original.status !== 'completed') {
    throw new AppError('invalid_state', 'Only a completed PIX cash-in can be refunded.');
  }
  // The cash-in a held PIX's return is made of is that return's own: returned, or back in suspense
  // when the return failed, its money is never the party's to refund.
  if ((original.metadata as Record<string, unknown> | null)?.held_return === true)
    throw new AppError(
      'invalid_state',
      'This cash-in is the return of a PIX received without a charge; it cannot be refunded.',
    );
  const at = deps.clock.now();
  if (!original.completed_at || at.getTime() - original.completed_at.getTime() > REFUND_WINDOW_MS) {
    throw new AppError('invalid_state', 'A PIX cash-in can only be refunded within 90 days.');
  }
  // What the PSP returned itself under MED is gone as surely as a refund.
  const taken = await returnedOfCharge(tx, original.workspace_id, original.id, [
    'created',
    'processing',
    'completed',
  ]);
  const refundable = original.amount_minor - taken;
  // Refunds still in flight may already cover all of it: no amount could be valid, so no range is named.
  if (refundable <= 0n) throw nothingLeft();
  const amount = input.amount_minor === undefined ? refundable : parseAmount(input.amount_minor);
  if (amount <= 0n || amount > refundable) {
    throw new AppError('invalid_amount', `At most ${refundable} can still be refunded.`, [
      { field: 'body.amount_minor', issue: `must be between 1 and ${refundable}` },
    ]);
  }
  const paymentId = newId();
  // Without amount_minor the refund is of all that is left: still the field that would ask for less.
  return debitOfField('body.amount_minor', () =>
    pixTransfers.start(
      tx,
      deps,
      {
        id: paymentId,
        workspace_id: original.workspace_id,
        environment: original.environment,
        party_id: original.party_id,
        kind: 'pix_refund',
        amount_minor: amount,
        currency: original.currency as Currency,
        related_payment_id: original.id,
        description: input.description ?? null,
        idempotency_key: idempotencyKey ?? null,
        counterparty: original.counterparty,
      },
      at,
    ),
  );
}
