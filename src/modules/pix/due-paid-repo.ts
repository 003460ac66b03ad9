/** SQL of what a due-date charge asked on the day it was paid (pix_due_charges.paid_on, amount_due_minor). */
import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';

/**
 * Records the day a charge was paid and the amount due that day, in the payment's own transaction:
 * `lastro verify` sets that amount beside the payment's.
 */
export async function recordDueChargePaid(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  paymentId: string,
  paid: { day: string; amountMinor: bigint },
): Promise<void> {
  await q.query(
    `UPDATE pix_due_charges SET paid_on = $4::date, amount_due_minor = $5
      WHERE workspace_id = $1 AND environment = $2 AND payment_id = $3`,
    [scope.workspaceId, scope.environment, paymentId, paid.day, paid.amountMinor],
  );
}
