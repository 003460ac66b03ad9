import { Type } from 'typebox';
import { actorOf, recordAudit } from '../../../platform/audit.ts';
import type { Deps } from '../../../platform/context.ts';
import { notFound } from '../../../platform/errors.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { updateWorkspace } from '../repo.ts';
import { Workspace, workspaceView } from '../schemas.ts';

export default function route(app: App, _deps: Deps) {
  app.patch(
    '/v1/:env/workspace',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['owner'],
        summary: 'Rename the workspace or turn production (live keys) on or off',
        params: EnvParams,
        body: Type.Object({
          display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
          production_enabled: Type.Optional(Type.Boolean()),
        }),
        response: respond(Workspace),
      },
    },
    async (request) => {
      const caller = request.caller!;
      const data = await request.write(async (tx) => {
        const workspace = await updateWorkspace(tx, caller.workspaceId, request.body);
        if (!workspace) throw notFound('Workspace');
        await recordAudit(tx, {
          workspaceId: caller.workspaceId,
          environment: caller.environment,
          ...actorOf(caller),
          action: 'workspace.updated',
          targetType: 'workspace',
          targetId: caller.workspaceId,
          ip: request.ip,
          metadata: { changes: request.body },
        });
        return workspaceView(workspace);
      });
      return { data };
    },
  );
}
