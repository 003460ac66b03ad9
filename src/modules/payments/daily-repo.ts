/**
 * The payments' daily sums for the reports: money in, money out and fees of the payments completed
 * each local day (a refunded cash-in was still received that day; its refund is money out).
 */
import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/environment.ts';

/** Received by a party: a PIX cash-in, a paid Pix Automático cycle, a crypto deposit. */
export const INFLOW_KINDS = ['pix_cash_in', 'pix_automatic', 'crypto_deposit'] as const;
/** Paid out of a party's balance: a payout, a refund, a MED return, a crypto send. */
export const OUTFLOW_KINDS = ['pix_cash_out', 'pix_refund', 'pix_med_return', 'crypto_send'] as const;

export interface DailyPaymentRow {
  day: string;
  in_minor: string;
  out_minor: string;
  fees_minor: string;
}

export async function dailyPaymentTotals(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  filter: { partyId: string | null; from: Date; to: Date; zone: string; currency: string },
): Promise<DailyPaymentRow[]> {
  const { rows } = await q.query<DailyPaymentRow>(
    `SELECT to_char(completed_at AT TIME ZONE $6, 'YYYY-MM-DD') AS day,
            COALESCE(SUM(amount_minor) FILTER (WHERE kind = ANY($8::text[])), 0)::text AS in_minor,
            COALESCE(SUM(amount_minor) FILTER (WHERE kind = ANY($9::text[])), 0)::text AS out_minor,
            COALESCE(SUM(fee_minor), 0)::text AS fees_minor
       FROM payments
      WHERE workspace_id = $1 AND environment = $2 AND ($3::uuid IS NULL OR party_id = $3)
        AND status IN ('completed', 'refunded') AND currency = $7
        AND completed_at >= $4 AND completed_at < $5
      GROUP BY 1 ORDER BY 1`,
    [
      scope.workspaceId,
      scope.environment,
      filter.partyId,
      filter.from,
      filter.to,
      filter.zone,
      filter.currency,
      INFLOW_KINDS,
      OUTFLOW_KINDS,
    ],
  );
  return rows;
}
