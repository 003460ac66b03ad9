import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { PageQuery } from '../../../platform/pagination.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, doc, EnvParams, Nullable, respond, Timestamp, Uuid } from '../../../platform/schema.ts';
import { listAuditEvents } from '../service.ts';

const AuditEvent = Type.Object({
  id: doc(Uuid, 'The audit event id.'),
  workspace_id: doc(Uuid, 'The workspace it happened in.'),
  environment: Nullable(Type.String(), {
    description: 'sandbox or live; null for an act of no environment (a login).',
  }),
  actor_type: Type.String({ description: 'Who acted: user (the owner), api_key or system.' }),
  actor_id: Nullable(Type.String(), { description: 'The id of the user or key that acted.' }),
  action: Type.String({ description: 'What was done, e.g. api_key.created, login.succeeded.' }),
  target_type: Nullable(Type.String(), { description: 'The kind of record acted on.' }),
  target_id: Nullable(Type.String(), { description: 'The id of the record acted on.' }),
  ip: Nullable(Type.String(), { description: 'The address the request came from.' }),
  request_id: Nullable(Type.String(), { description: 'The X-Request-Id of the request that did it.' }),
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'Details of the act.' }),
  created_at: doc(Timestamp, 'When it happened.'),
});

const AUDIT_EVENT_EXAMPLE = {
  id: '0194f3f0-6b7c-7d8e-9f0a-1b2c3d4e5f6a',
  workspace_id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'sandbox',
  actor_type: 'user',
  actor_id: '0194f39e-0000-7000-8000-00000000a001',
  action: 'api_key.created',
  target_type: 'api_key',
  target_id: '0194f3d0-4f5a-7b6c-8d7e-8f9a0b1c2d3e',
  ip: '203.0.113.7',
  request_id: '0194f3f0-6b7c-7d8e-9f0a-1b2c3d4e5f6b',
  metadata: { name: 'billing server' },
  created_at: '2026-11-20T12:00:00.000Z',
};

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/audit-events',
    {
      config: { auth: 'workspace', errors: [] },
      schema: {
        tags: ['owner'],
        summary: 'Security audit log of the workspace, newest first',
        description:
          "What was done to the workspace's security, newest first: logins, 2FA changes, API keys created and revoked, settings changed, with who did it and from where. Page with limit and cursor.",
        params: EnvParams,
        querystring: Type.Object(PageQuery()),
        response: respond(Type.Array(AuditEvent), { example: [AUDIT_EVENT_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listAuditEvents(deps.db, contextOf(deps, request), request.query) }),
  );
}
