import type { Deps } from '../../../platform/context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Event } from '../schemas.ts';
import { getEvent } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/events/:id',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['events'],
        summary: 'Get one event',
        params: EnvIdParams,
        response: respond(Event),
      },
    },
    async (request) => ({ data: await getEvent(deps, request.caller!, request.params.id) }),
  );
}
