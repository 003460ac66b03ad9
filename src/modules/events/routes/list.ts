import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { Event, EventQuery } from '../schemas.ts';
import { listEvents } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/events',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['events'],
        summary: 'List events of this environment, newest first, optionally of one type',
        params: EnvParams,
        querystring: EventQuery,
        response: respond(Type.Array(Event)),
      },
    },
    async (request) => ({
      data: await listEvents(deps.db, contextOf(deps, request), request.query),
    }),
  );
}
