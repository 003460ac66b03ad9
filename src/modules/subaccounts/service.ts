/**
 * Sub-accounts: child workspaces, one level deep, each born with its own default entity party. The
 * parent's owners manage them (a parent session is accepted with the child's X-Workspace-Id), and the
 * parent's workspace-level callers act on them with X-Subaccount-Id (platform/auth/authenticate.ts).
 */
import type { Queryable, Tx } from '../../db/types.ts';
import { auditAction } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { PageRequest } from '../../platform/pagination.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import {
  createWorkspace,
  findChildWorkspace,
  findWorkspaceRow,
  listChildWorkspaces,
  type WorkspaceRow,
} from '../workspace/service.ts';
import type { SubaccountCreateInput, SubaccountView } from './schemas.ts';

export const subaccountView = (row: WorkspaceRow): SubaccountView => ({
  id: row.id,
  parent_workspace_id: row.parent_workspace_id!,
  display_name: row.display_name,
  legal_name: row.legal_name,
  country: row.country,
  created_at: iso(row.created_at),
  status: row.status,
  party_id: row.default_party_id,
  settings: row.settings ?? {},
});

export async function createSubaccount(
  tx: Tx,
  ctx: Ctx,
  input: SubaccountCreateInput,
): Promise<SubaccountView> {
  const { caller, deps } = ctx;
  const parent = await findWorkspaceRow(tx, caller.workspaceId);
  if (!parent) throw notFound('Workspace');
  if (parent.parent_workspace_id !== null) {
    throw new AppError('subaccount_depth_exceeded', 'A sub-account cannot have sub-accounts of its own.');
  }
  const child = await createWorkspace(tx, {
    displayName: input.display_name,
    legalName: input.legal_name ?? null,
    country: input.country ?? null,
    parentWorkspaceId: parent.id,
    settings: input.settings ?? {},
  });
  const view = subaccountView(child);
  await emitEvent(tx, {
    workspaceId: parent.id,
    environment: caller.environment,
    type: 'subaccount.created',
    object: view,
    at: deps.clock.now(),
  });
  await auditAction(tx, ctx, 'subaccount.created', { type: 'workspace', id: child.id });
  return view;
}

export async function listSubaccounts(q: Queryable, ctx: Ctx, page: PageRequest): Promise<SubaccountView[]> {
  return (await listChildWorkspaces(q, ctx.caller.workspaceId, page)).map(subaccountView);
}

export async function getSubaccount(q: Queryable, ctx: Ctx, input: { id: string }): Promise<SubaccountView> {
  const row = await findChildWorkspace(q, ctx.caller.workspaceId, input.id);
  if (!row) throw notFound('Sub-account');
  return subaccountView(row);
}
