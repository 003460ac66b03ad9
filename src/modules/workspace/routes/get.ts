import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { Workspace } from '../schemas.ts';
import { getWorkspace } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/workspace',
    {
      config: { auth: 'session' },
      schema: { tags: ['owner'], summary: 'The workspace', params: EnvParams, response: respond(Workspace) },
    },
    async (request) => ({ data: await getWorkspace(deps.db, contextOf(deps, request)) }),
  );
}
