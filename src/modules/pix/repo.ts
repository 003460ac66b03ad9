/** SQL of the PIX module's own records of money the rail moved unasked: MED returns (held PIX: unassigned-repo.ts). */
import type { Gatherer } from '../../db/group-commit.ts';
import type { Queryable } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';

export interface MedReturnRow {
  workspace_id: string;
  payment_id: string;
  environment: Environment;
  party_id: string;
  charge_id: string;
  return_id: string;
  natureza: string;
  amount_minor: bigint;
  shortfall_minor: bigint;
  outstanding_minor: bigint;
  created_at: Date;
}

/** The MED return of a charge with the PSP's devolução id, when it was applied already. */
export async function findMedReturn(
  q: Queryable,
  workspaceId: string,
  chargeId: string,
  returnId: string,
): Promise<MedReturnRow | undefined> {
  const { rows } = await q.query<MedReturnRow>(
    'SELECT * FROM pix_med_returns WHERE workspace_id = $1 AND charge_id = $2 AND return_id = $3',
    [workspaceId, chargeId, returnId],
  );
  return rows[0];
}

export async function insertMedReturn(
  q: Queryable,
  row: Omit<MedReturnRow, 'created_at'> & { rtr_id: string | null; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO pix_med_returns (workspace_id, payment_id, environment, party_id, charge_id, return_id, rtr_id,
        natureza, amount_minor, shortfall_minor, outstanding_minor, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
    [
      row.workspace_id,
      row.payment_id,
      row.environment,
      row.party_id,
      row.charge_id,
      row.return_id,
      row.rtr_id,
      row.natureza,
      row.amount_minor,
      row.shortfall_minor,
      row.outstanding_minor,
      row.at,
    ],
  );
}

/** What a charge's refunds (completed or on their way) and MED returns have taken of it. */
export async function returnedOfCharge(
  q: Queryable,
  workspaceId: string,
  chargeId: string,
  refundStatuses: readonly string[],
): Promise<bigint> {
  const { rows } = await q.query<{ taken: bigint }>(
    `SELECT coalesce(sum(amount_minor), 0)::bigint AS taken FROM payments
      WHERE workspace_id = $1 AND related_payment_id = $2
        AND ((kind = 'pix_refund' AND status = ANY($3::text[])) OR kind = 'pix_med_return')`,
    [workspaceId, chargeId, [...refundStatuses]],
  );
  return rows[0]!.taken;
}

/** A party's MED returns it still owes part of, oldest first, locked until the transaction ends. */
export async function lockOwedReturns(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment; partyId: string },
): Promise<MedReturnRow[]> {
  const { rows } = await q.query<MedReturnRow>(
    `SELECT * FROM pix_med_returns
      WHERE workspace_id = $1 AND environment = $2 AND party_id = $3 AND outstanding_minor > 0
      ORDER BY created_at, payment_id FOR UPDATE`,
    [scope.workspaceId, scope.environment, scope.partyId],
  );
  return rows;
}

type PartyScope = { workspaceId: string; environment: Environment; partyId: string };

/**
 * The parties credited by an interleaved batch's requests, asked in one statement at its end whether
 * any owes a MED return: it errs if one does (migration 0039), and the batch runs again with savepoints.
 */
export const noOwedReturns: Gatherer<PartyScope> = {
  statement: (parties) => ({
    text: 'SELECT pix_no_owed_returns($1::uuid[], $2::text[], $3::uuid[])',
    params: [
      parties.map((party) => party.workspaceId),
      parties.map((party) => party.environment),
      parties.map((party) => party.partyId),
    ],
  }),
};

export async function setOutstanding(
  q: Queryable,
  workspaceId: string,
  paymentId: string,
  outstanding: bigint,
  at: Date,
): Promise<void> {
  await q.query(
    'UPDATE pix_med_returns SET outstanding_minor = $3, updated_at = $4 WHERE workspace_id = $1 AND payment_id = $2',
    [workspaceId, paymentId, outstanding, at],
  );
}

/** What each party of the workspace (or one party) still owes, by party. */
export async function owedByParty(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  partyId: string | null,
): Promise<Map<string, bigint>> {
  const { rows } = await q.query<{ party_id: string; owed: bigint }>(
    `SELECT party_id, sum(outstanding_minor)::bigint AS owed FROM pix_med_returns
      WHERE workspace_id = $1 AND environment = $2 AND outstanding_minor > 0 AND ($3::uuid IS NULL OR party_id = $3)
      GROUP BY party_id`,
    [scope.workspaceId, scope.environment, partyId],
  );
  return new Map(rows.map((row) => [row.party_id, row.owed]));
}

/** Parties that owe something, a round at a time, for the recovery sweep. */
export async function partiesOwing(
  q: Queryable,
  after: string,
  limit: number,
): Promise<{ workspace_id: string; environment: Environment; party_id: string }[]> {
  const { rows } = await q.query<{ workspace_id: string; environment: Environment; party_id: string }>(
    `SELECT workspace_id, environment, party_id FROM (
       SELECT DISTINCT workspace_id, environment, party_id,
              (workspace_id::text || '|' || environment || '|' || party_id::text) COLLATE "C" AS key
         FROM pix_med_returns WHERE outstanding_minor > 0) owing
      WHERE key > $1 ORDER BY key LIMIT $2`,
    [after, limit],
  );
  return rows;
}
