import type { Deps } from '../../../platform/context.ts';
import { notFound } from '../../../platform/errors.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { findWorkspace } from '../repo.ts';
import { Workspace, workspaceView } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/workspace',
    {
      config: { auth: 'session' },
      schema: { tags: ['owner'], summary: 'The workspace', params: EnvParams, response: respond(Workspace) },
    },
    async (request) => {
      const workspace = await findWorkspace(deps.db, request.caller!.workspaceId);
      if (!workspace) throw notFound('Workspace');
      return { data: workspaceView(workspace) };
    },
  );
}
