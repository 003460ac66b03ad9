import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { EVENT_EXAMPLE, Event, EventQuery } from '../schemas.ts';
import { listEvents } from '../service.ts';

export default function route(app: App, deps: Deps) {
  // A waiting list answers at once when the server begins to close, instead of holding its shutdown.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.get(
    '/v1/:env/events',
    {
      config: { auth: 'workspace', errors: ['invalid_request'] },
      schema: {
        tags: ['events'],
        summary: 'List events of this environment, newest first, optionally of one type',
        description:
          'With `after`, the events that followed that one, oldest first, waiting up to `wait_ms` for one: the feed `lastro listen` forwards. 400 invalid_request for `cursor` with `after`, or `wait_ms` without it.',
        params: EnvParams,
        querystring: EventQuery,
        response: respond(Type.Array(Event), { example: [EVENT_EXAMPLE] }),
      },
    },
    async (request) => ({
      data: await listEvents(
        deps.db,
        contextOf(deps, request),
        request.query,
        () => closing || request.raw.socket.destroyed,
      ),
    }),
  );
}
