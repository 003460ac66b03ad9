/**
 * The ledger gate: one transaction-scoped advisory lock per workspace, which every writer of that
 * workspace's balances takes before the first balance (ledger_post does, migration 0018). A
 * group-commit batch runs many requests' journals in one transaction, one after another, so its
 * balance locks follow no single order; taking its workspaces' gates first, sorted, means a write
 * outside the batch waits for the batch's commit instead of deadlocking with it.
 */
import { GroupCommit, type GroupCommitOptions } from '../db/group-commit.ts';
import type { Database, Queryable } from '../db/types.ts';

/** The advisory lock class of the gate; the second key is hashtext(workspace id), as in ledger_post. */
const GATE_CLASS = 7_466_116;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * SQL that takes the gates of these workspaces in one order (by key), so two batches, or a batch and
 * a write that takes several gates, never take them crosswise. Ids are inlined (the statement is sent
 * with the batch's first command, which takes no parameters); anything not a UUID is left out.
 */
export function lockLedgerGates(workspaceIds: readonly string[]): string {
  const ids = [...new Set(workspaceIds.map((id) => id.toLowerCase()))].filter((id) => UUID.test(id));
  if (ids.length === 0) return '';
  const list = ids.map((id) => `'${id}'`).join(', ');
  return `SELECT pg_advisory_xact_lock(${GATE_CLASS}, k) FROM (SELECT DISTINCT hashtext(w) AS k FROM unnest(ARRAY[${list}]::text[]) AS w ORDER BY k) AS gates`;
}

/**
 * Takes one workspace's gate in the caller's transaction, as ledger_post does: a writer that locks a
 * balance itself before posting (to read it first) must queue here before that lock, or it holds the
 * balance while a post that holds the gate waits on it (40P01). Sent as a statement of the
 * transaction, so on Citus it is taken where the group-commit prelude and ledger_post take it.
 */
export async function takeLedgerGate(q: Queryable, workspaceId: string): Promise<void> {
  await q.query(`SELECT pg_advisory_xact_lock(${GATE_CLASS}, hashtext($1::text))`, [
    workspaceId.toLowerCase(),
  ]);
}

/** Group commit keyed by workspace, each batch holding its workspaces' ledger gates from its start. */
export function workspaceGroupCommit(db: Database, options: GroupCommitOptions = {}): GroupCommit {
  return new GroupCommit(db, { ...options, prelude: lockLedgerGates });
}
