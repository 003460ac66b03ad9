import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, Name, respond } from '../../../platform/schema.ts';
import { Workspace } from '../schemas.ts';
import { updateWorkspaceSettings } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.patch(
    '/v1/:env/workspace',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['owner'],
        summary: 'Rename the workspace or turn production (live keys) on or off',
        params: EnvParams,
        body: Type.Object({
          display_name: Type.Optional(Name(120)),
          production_enabled: Type.Optional(Type.Boolean()),
        }),
        response: respond(Workspace),
      },
    },
    async (request) => ({
      data: await request.write((tx) => updateWorkspaceSettings(tx, contextOf(deps, request), request.body)),
    }),
  );
}
