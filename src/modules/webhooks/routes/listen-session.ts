import type { Static } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { LISTEN_SESSION_EXAMPLE, ListenSession } from '../schemas.ts';
import { listenSession } from '../service.ts';

export type ListenSessionResponse = Static<typeof ListenSession>;

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/webhooks/listen-session',
    {
      // Nothing but the credential checks every route makes can refuse it.
      config: { auth: 'workspace', errors: [] },
      schema: {
        tags: ['webhooks'],
        summary: 'What `lastro listen` needs to forward events: its signing secret and where to start',
        description:
          'The CLI reads events with GET /v1/{env}/events?after=…&wait_ms=… and signs each one it forwards, as a delivery is signed (Standard Webhooks), with this secret. Nothing is stored: the secret is derived from the server master key, for this workspace and environment.',
        params: EnvParams,
        response: respond(ListenSession, { example: LISTEN_SESSION_EXAMPLE }),
      },
    },
    async (request) => ({ data: listenSession(contextOf(deps, request)) }),
  );
}
