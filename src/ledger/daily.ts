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

/**
 * The opening is worked back from the running balance (ledger_balances) through the postings since
 * `from`, in one statement so both are one snapshot: a report reads the postings of its range
 * onwards, never the parties' whole history, and ends where GET /balances stands.
 */
export async function dailyAvailableMoves(
  q: Queryable,
  scope: BookScope,
  filter: { partyId: string | null; from: Date; to: Date; zone: string; currency: string },
): Promise<DailyBalanceMoves> {
  const { rows } = await q.query<{ day: string | null; net: string; current: boolean }>(
    `SELECT CASE WHEN posted_at < $5 THEN to_char(posted_at AT TIME ZONE $6, 'YYYY-MM-DD') END AS day,
            SUM(CASE WHEN direction = 'credit' THEN amount ELSE -amount END)::text AS net, false AS current
       FROM ledger_postings
      WHERE workspace_id = $1 AND environment = $2 AND party_id IS NOT NULL
        AND ($3::uuid IS NULL OR party_id = $3) AND kind = 'available' AND currency = $7
        AND posted_at >= $4
      GROUP BY 1
     UNION ALL
     SELECT NULL, COALESCE(SUM(b.balance), 0)::text, true
       FROM ledger_accounts a JOIN ledger_balances b ON b.workspace_id = a.workspace_id AND b.account_id = a.id
      WHERE a.workspace_id = $1 AND a.environment = $2 AND a.party_id IS NOT NULL
        AND ($3::uuid IS NULL OR a.party_id = $3) AND a.kind = 'available' AND a.currency = $7`,
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
    if (row.current) opening += BigInt(row.net);
    else opening -= BigInt(row.net);
    if (!row.current && row.day !== null) moves.set(row.day, BigInt(row.net));
  }
  return { opening, moves };
}
