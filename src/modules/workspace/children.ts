/**
 * Reads of a workspace's sub-accounts (child workspaces), for the subaccounts module: the workspaces
 * table stays this module's. Creation goes through createWorkspace in service.ts, as signup's does.
 */
import type { Queryable } from '../../db/types.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';
import type { WorkspaceRow } from './repo.ts';

export async function listChildWorkspaces(
  q: Queryable,
  parentId: string,
  page: PageRequest,
): Promise<WorkspaceRow[]> {
  const params: unknown[] = [parentId];
  const { rows } = await q.query<WorkspaceRow>(
    `SELECT * FROM workspaces WHERE parent_workspace_id = $1 ${pageById(params, page)}`,
    params,
  );
  return rows;
}

export async function findChildWorkspace(
  q: Queryable,
  parentId: string,
  id: string,
): Promise<WorkspaceRow | undefined> {
  const { rows } = await q.query<WorkspaceRow>(
    'SELECT * FROM workspaces WHERE id = $1 AND parent_workspace_id = $2',
    [id, parentId],
  );
  return rows[0];
}
