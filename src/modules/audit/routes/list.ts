import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { PageQuery } from '../../../platform/pagination.ts';
import { type App, EnvParams, iso, Nullable, respond, Timestamp, Uuid } from '../../../platform/schema.ts';

const AuditEvent = Type.Object({
  id: Uuid,
  workspace_id: Uuid,
  environment: Nullable(Type.String()),
  actor_type: Type.String(),
  actor_id: Nullable(Type.String()),
  action: Type.String(),
  target_type: Nullable(Type.String()),
  target_id: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  request_id: Nullable(Type.String()),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
});

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/audit-events',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['owner'],
        summary: 'Security audit log of the workspace, newest first',
        params: EnvParams,
        querystring: Type.Object(PageQuery()),
        response: respond(Type.Array(AuditEvent)),
      },
    },
    async (request) => {
      const { rows } = await deps.db.query<{ created_at: Date }>(
        `SELECT id, workspace_id, environment, actor_type, actor_id, action, target_type, target_id, ip, request_id, metadata, created_at
           FROM audit_events WHERE workspace_id = $1 AND (environment = $4 OR environment IS NULL)
            AND ($2::uuid IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
        [
          request.caller!.workspaceId,
          request.query.cursor ?? null,
          request.query.limit ?? 50,
          request.caller!.environment,
        ],
      );
      return { data: rows.map((row) => ({ ...row, created_at: iso(row.created_at) })) as never };
    },
  );
}
