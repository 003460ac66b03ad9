import type { Queryable } from '../../db/types.ts';
import type { Caller } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';

/**
 * The party rules every money route follows (API.md "Callers" and "Parties"):
 * - a party-scoped key sees and moves only its own party: another party_id → 403 forbidden;
 * - a party_id that is not a party of the workspace → 404 not_found (never reveal other tenants);
 * - party_id omitted on a write means the key's party, else the workspace's default entity party.
 */

/**
 * The party a request names, after the party-scope rule: a party-scoped key naming another party is
 * 403. Null means "the default" (the key's party, else the workspace's default entity party).
 */
export function requestedParty(caller: Caller, partyId?: string): string | null {
  // UUIDs compare without case in SQL but not as text: the id as stored is the one that names accounts.
  if (
    partyId !== undefined &&
    caller.partyId !== null &&
    caller.partyId.toLowerCase() !== partyId.toLowerCase()
  ) {
    throw forbidden('This key is scoped to another party.');
  }
  return partyId ?? caller.partyId;
}

async function checkParty(q: Queryable, caller: Caller, partyId: string): Promise<string> {
  requestedParty(caller, partyId);
  const { rows } = await q.query<{ id: string }>(
    'SELECT id FROM parties WHERE workspace_id = $1 AND id = $2',
    [caller.workspaceId, partyId],
  );
  if (!rows[0]) throw notFound('Party');
  return rows[0].id;
}

/** For lists: the one party to narrow to, or null for every party of the workspace. */
export async function partyFilter(q: Queryable, caller: Caller, partyId?: string): Promise<string | null> {
  if (partyId !== undefined) return checkParty(q, caller, partyId);
  return caller.partyId;
}

/**
 * Workspaces' default parties, as read: a workspace's is set in the transaction that creates it and
 * never changes, so a process may keep what it read (bounded; forgotten whole when full).
 */
const defaultParties = new Map<string, string>();
const DEFAULT_PARTIES_KEPT = 10_000;

/** The caller's default party: the key's party, else the workspace's default entity party. */
export async function defaultParty(q: Queryable, caller: Caller): Promise<string> {
  if (caller.partyId !== null) return caller.partyId;
  const known = defaultParties.get(caller.workspaceId);
  if (known !== undefined) return known;
  const { rows } = await q.query<{ default_party_id: string }>(
    'SELECT default_party_id FROM workspaces WHERE id = $1',
    [caller.workspaceId],
  );
  const partyId = rows[0]?.default_party_id;
  if (!partyId) throw notFound('Default party');
  if (defaultParties.size >= DEFAULT_PARTIES_KEPT) defaultParties.clear();
  defaultParties.set(caller.workspaceId, partyId);
  return partyId;
}

/** For writes: the party the money belongs to. */
export async function owningParty(q: Queryable, caller: Caller, partyId?: string): Promise<string> {
  return partyId !== undefined ? checkParty(q, caller, partyId) : defaultParty(q, caller);
}

/** A blocked customer's money cannot move: every outgoing money route asks this of the paying party. */
export function refuseBlocked(status: string | undefined): void {
  if (status === 'blocked') {
    throw forbidden(
      'This customer is blocked: its money cannot move until the workspace sets its status back to active.',
    );
  }
}

/** The same check for a flow that has only the party's id. */
export async function assertMayMoveMoney(q: Queryable, workspaceId: string, partyId: string): Promise<void> {
  const { rows } = await q.query<{ status: string }>(
    'SELECT status FROM parties WHERE workspace_id = $1 AND id = $2',
    [workspaceId, partyId],
  );
  refuseBlocked(rows[0]?.status);
}
