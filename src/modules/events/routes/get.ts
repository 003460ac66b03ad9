import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { EVENT_EXAMPLE, Event } from '../schemas.ts';
import { getEvent } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/events/:id',
    {
      config: { auth: 'workspace', errors: ['not_found'] },
      schema: {
        tags: ['events'],
        summary: 'Get one event',
        description:
          "One event of this environment by its id (a webhook's `webhook-id`), as its deliveries carry it. 404 not_found for an id of another workspace or environment.",
        params: EnvIdParams,
        response: respond(Event, { example: EVENT_EXAMPLE }),
      },
    },
    async (request) => ({ data: await getEvent(deps.db, contextOf(deps, request), request.params) }),
  );
}
