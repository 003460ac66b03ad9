import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { PageQuery } from '../../../platform/pagination.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, Nullable, respond, Timestamp, Uuid } from '../../../platform/schema.ts';
import { listAuditEvents } from '../service.ts';

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
    async (request) => ({ data: await listAuditEvents(deps.db, contextOf(deps, request), request.query) }),
  );
}
