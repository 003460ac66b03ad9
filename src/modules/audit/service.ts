import type { Queryable } from '../../db/types.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';

/** The workspace's audit log in the caller's environment (and workspace-wide entries), newest first. */
export async function listAuditEvents(q: Queryable, ctx: Ctx, page: PageRequest) {
  const params: unknown[] = [ctx.caller.workspaceId, ctx.caller.environment];
  const { rows } = await q.query<{ created_at: Date }>(
    `SELECT id, workspace_id, environment, actor_type, actor_id, action, target_type, target_id, ip, request_id,
            metadata, created_at
       FROM audit_events WHERE workspace_id = $1 AND (environment = $2 OR environment IS NULL) ${pageById(params, page)}`,
    params,
  );
  return rows.map((row) => ({ ...row, created_at: iso(row.created_at) })) as never;
}
