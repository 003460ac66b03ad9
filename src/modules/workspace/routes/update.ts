import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, Name, respond } from '../../../platform/schema.ts';
import { WORKSPACE_EXAMPLE, Workspace } from '../schemas.ts';
import { updateWorkspaceSettings } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.patch(
    '/v1/:env/workspace',
    {
      config: { auth: 'session', errors: ['not_found'] },
      schema: {
        tags: ['owner'],
        summary: 'Rename the workspace or turn production (live keys) on or off',
        description:
          'Renames the workspace, or turns production on or off: with production off, live keys and /v1/live calls are refused (403 production_not_enabled). Dashboard session only.',
        params: EnvParams,
        body: Type.Object(
          {
            display_name: Type.Optional(Name(120, { description: 'The new name, 1 to 120 characters.' })),
            production_enabled: Type.Optional(
              Type.Boolean({
                description: 'true turns live keys and /v1/live calls on; false turns them off.',
              }),
            ),
          },
          { examples: [{ production_enabled: true }] },
        ),
        response: respond(Workspace, { example: WORKSPACE_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => updateWorkspaceSettings(tx, contextOf(deps, request), request.body)),
    }),
  );
}
