import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';

export type FeeRail = 'pix_payout' | 'pix_cash_in';

/** Fees when a workspace has no schedule of its own: R$ 1.00 per payout, cash-in free. */
export const DEFAULT_FEES: Record<FeeRail, { fixed: bigint; bps: number }> = {
  pix_payout: { fixed: 100n, bps: 0 },
  pix_cash_in: { fixed: 0n, bps: 0 },
};

/** fixed + ceil(amount × bps / 10 000): what we charge rounds up. */
export function computeFee(amount: bigint, schedule: { fixed: bigint; bps: number }): bigint {
  const variable = (amount * BigInt(schedule.bps) + 9_999n) / 10_000n;
  return schedule.fixed + variable;
}

export async function feeFor(
  q: Queryable,
  workspaceId: string,
  environment: Environment,
  rail: FeeRail,
  amount: bigint,
): Promise<bigint> {
  const { rows } = await q.query<{ fixed_minor: bigint; bps: number }>(
    'SELECT fixed_minor, bps FROM fee_schedules WHERE workspace_id = $1 AND environment = $2 AND rail = $3',
    [workspaceId, environment, rail],
  );
  const row = rows[0];
  return computeFee(amount, row ? { fixed: row.fixed_minor, bps: row.bps } : DEFAULT_FEES[rail]);
}
