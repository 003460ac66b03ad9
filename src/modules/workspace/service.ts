import type { Queryable, Tx } from '../../db/types.ts';
import { auditAction } from '../../platform/audit.ts';
import { credentialsChanged } from '../../platform/auth/credential-cache.ts';
import { notFound } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { addMember, findWorkspace, insertWorkspace, type NewWorkspace, updateWorkspace } from './repo.ts';
import { workspaceView } from './schemas.ts';

export async function getWorkspace(q: Queryable, ctx: Ctx) {
  const workspace = await findWorkspace(q, ctx.caller.workspaceId);
  if (!workspace) throw notFound('Workspace');
  return workspaceView(workspace);
}

/** Renames the workspace or turns production on or off, with its audit entry. */
export async function updateWorkspaceSettings(
  tx: Tx,
  ctx: Ctx,
  input: { display_name?: string; production_enabled?: boolean },
) {
  const workspace = await updateWorkspace(tx, ctx.caller.workspaceId, input);
  if (!workspace) throw notFound('Workspace');
  // Whether live keys work is part of what every process caches about a key.
  if (input.production_enabled !== undefined) credentialsChanged(tx);
  await auditAction(
    tx,
    ctx,
    'workspace.updated',
    { type: 'workspace', id: ctx.caller.workspaceId },
    { changes: input },
  );
  return workspaceView(workspace);
}

/** A new workspace with its default entity party, owned by `ownerId` when given (signup). */
export async function createWorkspace(tx: Tx, input: NewWorkspace & { ownerId?: string }) {
  const workspace = await insertWorkspace(tx, input);
  if (input.ownerId) await addMember(tx, workspace.id, input.ownerId);
  return workspace;
}

/** A workspace as stored, for the modules that build on it (sub-accounts). */
export const findWorkspaceRow = (q: Queryable, id: string) => findWorkspace(q, id);

export { findChildWorkspace, listChildWorkspaces } from './children.ts';
export type { WorkspaceRow } from './repo.ts';
