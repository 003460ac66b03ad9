import type { Queryable } from '../db/types.ts';
import type { Caller, Environment } from './context.ts';
import { newId } from './ids.ts';
import type { Ctx } from './request-context.ts';

export interface AuditEntry {
  workspaceId: string;
  environment?: Environment | null;
  actorType: 'user' | 'api_key' | 'system';
  actorId?: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  ip?: string;
  requestId?: string;
  metadata?: Record<string, unknown>;
}

export async function recordAudit(q: Queryable, entry: AuditEntry): Promise<void> {
  await q.query(
    `INSERT INTO audit_events (id, workspace_id, environment, actor_type, actor_id, action, target_type, target_id, ip, request_id, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      newId(),
      entry.workspaceId,
      entry.environment ?? null,
      entry.actorType,
      entry.actorId ?? null,
      entry.action,
      entry.targetType ?? null,
      entry.targetId ?? null,
      entry.ip ?? null,
      entry.requestId ?? null,
      JSON.stringify(entry.metadata ?? {}),
    ],
  );
}

/** The audit actor for a caller: the user behind a session, or the API key. */
export const actorOf = (caller: Caller) =>
  caller.type === 'session'
    ? { actorType: 'user' as const, actorId: caller.userId ?? null }
    : { actorType: 'api_key' as const, actorId: caller.apiKeyId ?? null };

/** Records what the caller of `ctx` did, with its request id and IP. */
export function auditAction(
  q: Queryable,
  ctx: Ctx,
  action: string,
  target?: { type: string; id?: string },
  metadata?: Record<string, unknown>,
): Promise<void> {
  return recordAudit(q, {
    workspaceId: ctx.caller.workspaceId,
    environment: ctx.caller.environment,
    ...actorOf(ctx.caller),
    action,
    targetType: target?.type,
    targetId: target?.id,
    ip: ctx.ip,
    requestId: ctx.requestId,
    metadata,
  });
}
