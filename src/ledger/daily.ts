/**
 * The ledger's daily read for the reports: how the parties' available BRL balance moved each local
 * day, and what it was before the first. Days are calendar days in `zone` (America/Sao_Paulo).
 */
import type { Queryable } from '../db/types.ts';
import type { BookScope } from './reads.ts';

export interface DailyBalanceMoves {
  /** The available balance at the range's first instant. */
  opening: bigint;
  /** The net change (credits less debits) of each local day that had postings, by YYYY-MM-DD. */
  moves: Map<string, bigint>;
}

export async function dailyAvailableMoves(
  q: Queryable,
  scope: BookScope,
  filter: { partyId: string | null; from: Date; to: Date; zone: string; currency: string },
): Promise<DailyBalanceMoves> {
  const { rows } = await q.query<{ day: string | null; net: string }>(
    `SELECT CASE WHEN posted_at >= $4 THEN to_char(posted_at AT TIME ZONE $6, 'YYYY-MM-DD') END AS day,
            SUM(CASE WHEN direction = 'credit' THEN amount ELSE -amount END)::text AS net
       FROM ledger_postings
      WHERE workspace_id = $1 AND environment = $2 AND party_id IS NOT NULL
        AND ($3::uuid IS NULL OR party_id = $3) AND kind = 'available' AND currency = $7
        AND posted_at < $5
      GROUP BY 1`,
    [
      scope.workspaceId,
      scope.environment,
      filter.partyId,
      filter.from,
      filter.to,
      filter.zone,
      filter.currency,
    ],
  );
  const moves = new Map<string, bigint>();
  let opening = 0n;
  for (const row of rows) {
    if (row.day === null) opening = BigInt(row.net);
    else moves.set(row.day, BigInt(row.net));
  }
  return { opening, moves };
}
