import type { Queryable, Tx } from '../../db/types.ts';
import { newId } from '../../platform/ids.ts';

export interface WorkspaceRow {
  id: string;
  parent_workspace_id: string | null;
  display_name: string;
  legal_name: string | null;
  country: string | null;
  status: string;
  settings: Record<string, unknown>;
  production_enabled: boolean;
  default_party_id: string;
  created_at: Date;
  updated_at: Date;
}

export interface NewWorkspace {
  displayName: string;
  legalName?: string | null;
  country?: string | null;
  parentWorkspaceId?: string | null;
  settings?: Record<string, unknown>;
}

/** A workspace is born with its default entity party: money always belongs to a party. */
export async function insertWorkspace(tx: Tx, input: NewWorkspace): Promise<WorkspaceRow> {
  const workspaceId = newId();
  const partyId = newId();
  await tx.query(
    `INSERT INTO workspaces (id, parent_workspace_id, display_name, legal_name, country, settings)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      workspaceId,
      input.parentWorkspaceId ?? null,
      input.displayName,
      input.legalName ?? null,
      input.country ?? null,
      JSON.stringify(input.settings ?? {}),
    ],
  );
  await tx.query(
    `INSERT INTO parties (id, workspace_id, kind, display_name, legal_name, country) VALUES ($1, $2, 'entity', $3, $4, $5)`,
    [partyId, workspaceId, input.displayName, input.legalName ?? null, input.country ?? null],
  );
  const { rows } = await tx.query<WorkspaceRow>(
    'UPDATE workspaces SET default_party_id = $2 WHERE id = $1 RETURNING *',
    [workspaceId, partyId],
  );
  return rows[0]!;
}

export async function findWorkspace(q: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  const { rows } = await q.query<WorkspaceRow>('SELECT * FROM workspaces WHERE id = $1', [id]);
  return rows[0];
}

export async function addMember(tx: Tx, workspaceId: string, userId: string, role = 'owner'): Promise<void> {
  await tx.query('INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)', [
    workspaceId,
    userId,
    role,
  ]);
}

export async function updateWorkspace(
  tx: Tx,
  id: string,
  patch: { display_name?: string; production_enabled?: boolean },
): Promise<WorkspaceRow | undefined> {
  const { rows } = await tx.query<WorkspaceRow>(
    `UPDATE workspaces SET display_name = COALESCE($2, display_name),
            production_enabled = COALESCE($3, production_enabled), updated_at = now()
      WHERE id = $1 RETURNING *`,
    [id, patch.display_name ?? null, patch.production_enabled ?? null],
  );
  return rows[0];
}
