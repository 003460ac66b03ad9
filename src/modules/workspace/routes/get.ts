import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { WORKSPACE_EXAMPLE, Workspace } from '../schemas.ts';
import { getWorkspace } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/workspace',
    {
      config: { auth: 'session', errors: [] },
      schema: {
        tags: ['owner'],
        summary: 'The workspace',
        description:
          'The workspace the session acts on (X-Workspace-Id): its name, whether production is on, and its own party.',
        params: EnvParams,
        response: respond(Workspace, { example: WORKSPACE_EXAMPLE }),
      },
    },
    async (request) => ({ data: await getWorkspace(deps.db, contextOf(deps, request)) }),
  );
}
