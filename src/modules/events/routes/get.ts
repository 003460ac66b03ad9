import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
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
    async (request) => ({ data: await getEvent(deps.db, contextOf(deps, request), request.params) }),
  );
}
