/**
 * SQL of reconciliation: what the PIX books hold for a window (read across workspaces, without locks,
 * as sweeps may) and the runs and findings it stores, a row per workspace.
 */
import type { Queryable } from '../../../db/types.ts';
import type { Environment } from '../../../platform/context.ts';
import { pageById } from '../../../platform/pagination.ts';
import { NO_WORKSPACE } from './report.ts';
import type { FindingKind } from './schemas.ts';

export interface BookedCashIn {
  id: string;
  workspace_id: string;
  status: string;
  amount_minor: bigint;
  pix_tx_id: string | null;
  pix_txid: string | null;
}

const CASH_IN = 'id, workspace_id, status, amount_minor, pix_tx_id, pix_txid';

/**
 * PIX the books took in: charges (pix_cash_in) and Pix Automático cycles (pix_automatic), whose cobr
 * the payer's PSP pays into the same account, so the PSP lists both alike.
 */
const RECEIVED_KINDS = "kind IN ('pix_cash_in', 'pix_automatic')";

/** Cash-ins the PSP's PIX name, by end-to-end id or by txid. */
export async function cashInsNamed(
  q: Queryable,
  environment: Environment,
  endToEndIds: readonly string[],
  txids: readonly string[],
): Promise<BookedCashIn[]> {
  const { rows } = await q.query<BookedCashIn>(
    `SELECT ${CASH_IN} FROM payments
      WHERE environment = $1 AND ${RECEIVED_KINDS} AND (pix_tx_id = ANY($2) OR pix_txid = ANY($3))`,
    [environment, [...endToEndIds], [...txids]],
  );
  return rows;
}

/** Cash-ins the books say were paid in the window: the PSP must hold each. */
export async function cashInsPaidIn(
  q: Queryable,
  environment: Environment,
  from: Date,
  to: Date,
): Promise<BookedCashIn[]> {
  const { rows } = await q.query<BookedCashIn>(
    `SELECT ${CASH_IN} FROM payments
      WHERE environment = $1 AND ${RECEIVED_KINDS} AND status IN ('completed', 'refunded')
        AND pix_tx_id IS NOT NULL AND completed_at >= $2 AND completed_at < $3`,
    [environment, from, to],
  );
  return rows;
}

/** PIX held without a charge, by end-to-end id. */
export async function unassignedNamed(
  q: Queryable,
  environment: Environment,
  endToEndIds: readonly string[],
): Promise<{ workspace_id: string; end_to_end_id: string; amount_minor: bigint }[]> {
  const { rows } = await q.query<{ workspace_id: string; end_to_end_id: string; amount_minor: bigint }>(
    `SELECT workspace_id, end_to_end_id, amount_minor FROM pix_unassigned
      WHERE environment = $1 AND end_to_end_id = ANY($2)`,
    [environment, [...endToEndIds]],
  );
  return rows;
}

/**
 * The PSP's devolução ids that are in the books: as MED returns, or recorded on a PIX still held
 * without a charge (whose held amount is the PSP's less them).
 */
export async function medReturnsNamed(
  q: Queryable,
  environment: Environment,
  returnIds: readonly string[],
): Promise<Set<string>> {
  const { rows } = await q.query<{ return_id: string }>(
    `SELECT return_id FROM pix_med_returns WHERE environment = $1 AND return_id = ANY($2)
     UNION
     SELECT r.return_id FROM pix_unassigned_returns r
       JOIN pix_unassigned u ON u.workspace_id = r.workspace_id AND u.id = r.unassigned_id
      WHERE u.environment = $1 AND r.return_id = ANY($2)`,
    [environment, [...returnIds]],
  );
  return new Set(rows.map((row) => row.return_id));
}

export interface BookedTransfer {
  id: string;
  workspace_id: string;
  kind: 'pix_cash_out' | 'pix_refund';
  status: string;
  amount_minor: bigint;
  original_end_to_end_id: string | null;
}

/** Payouts and refunds created in the window that reached the PSP (not those still only held). */
export async function transfersCreatedIn(
  q: Queryable,
  environment: Environment,
  from: Date,
  to: Date,
): Promise<BookedTransfer[]> {
  const { rows } = await q.query<BookedTransfer>(
    `SELECT p.id, p.workspace_id, p.kind, p.status, p.amount_minor, o.pix_tx_id AS original_end_to_end_id
       FROM payments p
       LEFT JOIN payments o ON o.workspace_id = p.workspace_id AND o.id = p.related_payment_id
      WHERE p.environment = $1 AND p.kind IN ('pix_cash_out', 'pix_refund')
        AND p.status IN ('processing', 'completed', 'failed') AND p.created_at >= $2 AND p.created_at < $3`,
    [environment, from, to],
  );
  return rows;
}

export interface RunRow {
  workspace_id: string;
  id: string;
  environment: Environment;
  window_from: Date;
  window_to: Date;
  trigger: 'daily' | 'on_demand' | 'cli';
  psp_pix: number;
  transfers: number;
  findings: number;
  created_at: Date;
}

export interface FindingRow {
  workspace_id: string;
  run_id: string;
  id: string;
  kind: FindingKind;
  end_to_end_id: string | null;
  payment_id: string | null;
  expected_minor: bigint | null;
  found_minor: bigint | null;
  expected_status: string | null;
  found_status: string | null;
  detail: string;
}

/**
 * Stores a workspace's part of a run; false when that workspace already has the day's daily run
 * (another worker's, or this one's before a crash), which is then left as it is.
 */
export async function insertRun(q: Queryable, run: RunRow): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO reconciliation_runs (workspace_id, id, environment, window_from, window_to, trigger, psp_pix,
        transfers, findings, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [
      run.workspace_id,
      run.id,
      run.environment,
      run.window_from,
      run.window_to,
      run.trigger,
      run.psp_pix,
      run.transfers,
      run.findings,
      run.created_at,
    ],
  );
  return rows.length > 0;
}

export async function insertFinding(q: Queryable, f: FindingRow): Promise<void> {
  await q.query(
    `INSERT INTO reconciliation_findings (workspace_id, run_id, id, kind, end_to_end_id, payment_id,
        expected_minor, found_minor, expected_status, found_status, detail)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      f.workspace_id,
      f.run_id,
      f.id,
      f.kind,
      f.end_to_end_id,
      f.payment_id,
      f.expected_minor,
      f.found_minor,
      f.expected_status,
      f.found_status,
      f.detail,
    ],
  );
}

type Scope = { workspaceId: string; environment: Environment };

export async function listRuns(q: Queryable, scope: Scope, page: { limit?: number; cursor?: string }) {
  const params: unknown[] = [scope.workspaceId, scope.environment];
  const { rows } = await q.query<RunRow>(
    `SELECT * FROM reconciliation_runs WHERE workspace_id = $1 AND environment = $2 ${pageById(params, page)}`,
    params,
  );
  return rows;
}

export async function findRun(q: Queryable, scope: Scope, id: string): Promise<RunRow | undefined> {
  const { rows } = await q.query<RunRow>(
    'SELECT * FROM reconciliation_runs WHERE workspace_id = $1 AND environment = $2 AND id = $3',
    [scope.workspaceId, scope.environment, id],
  );
  return rows[0];
}

export async function findingsOf(q: Queryable, workspaceId: string, runId: string): Promise<FindingRow[]> {
  const { rows } = await q.query<FindingRow>(
    'SELECT * FROM reconciliation_findings WHERE workspace_id = $1 AND run_id = $2 ORDER BY id',
    [workspaceId, runId],
  );
  return rows;
}

/** Whether the daily run of the day starting at `from` is stored (any workspace's row of it). */
export async function dailyRunExists(q: Queryable, environment: Environment, from: Date): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT 1 FROM reconciliation_runs
      WHERE workspace_id = $3 AND environment = $1 AND trigger = 'daily' AND window_from = $2 LIMIT 1`,
    [environment, from, NO_WORKSPACE],
  );
  return rows.length > 0;
}

/** The start of the newest day the daily run reconciled in `environment`, if it ever ran there. */
export async function latestDailyRun(q: Queryable, environment: Environment): Promise<Date | undefined> {
  const { rows } = await q.query<{ from: Date | null }>(
    `SELECT max(window_from) AS "from" FROM reconciliation_runs
      WHERE workspace_id = $2 AND environment = $1 AND trigger = 'daily'`,
    [environment, NO_WORKSPACE],
  );
  return rows[0]?.from ?? undefined;
}

/** The workspace's newest sandbox payment of these kinds and statuses (a simulator's default target). */
export async function newestSandboxPayment(
  q: Queryable,
  workspaceId: string,
  kinds: readonly string[],
  statuses: readonly string[],
): Promise<
  { id: string; kind: string; status: string; amount_minor: bigint; pix_tx_id: string | null } | undefined
> {
  const { rows } = await q.query<{
    id: string;
    kind: string;
    status: string;
    amount_minor: bigint;
    pix_tx_id: string | null;
  }>(
    `SELECT id, kind, status, amount_minor, pix_tx_id FROM payments
      WHERE workspace_id = $1 AND environment = 'sandbox' AND kind = ANY($2) AND status = ANY($3)
        AND (kind <> 'pix_cash_in' OR pix_tx_id IS NOT NULL)
      ORDER BY id DESC LIMIT 1`,
    [workspaceId, [...kinds], [...statuses]],
  );
  return rows[0];
}

/** The findings of the workspace's runs whose window starts in [from, to), oldest run first. */
/** One page of the findings of the runs whose window starts in [from, to), after `after` in (run, finding) order. */
export async function findingsInRange(
  q: Queryable,
  scope: Scope,
  range: { from: Date; to: Date; after?: { runId: string; id: string }; limit: number },
): Promise<(FindingRow & { window_from: Date; window_to: Date })[]> {
  const after = range.after ?? {
    runId: '00000000-0000-0000-0000-000000000000',
    id: '00000000-0000-0000-0000-000000000000',
  };
  const { rows } = await q.query<FindingRow & { window_from: Date; window_to: Date }>(
    `SELECT f.*, r.window_from, r.window_to FROM reconciliation_findings f
       JOIN reconciliation_runs r ON r.workspace_id = f.workspace_id AND r.id = f.run_id
      WHERE r.workspace_id = $1 AND r.environment = $2 AND r.window_from >= $3 AND r.window_from < $4
        AND (f.run_id, f.id) > ($5::uuid, $6::uuid)
      ORDER BY f.run_id, f.id
      LIMIT $7`,
    [scope.workspaceId, scope.environment, range.from, range.to, after.runId, after.id, range.limit],
  );
  return rows;
}
