import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { EndpointWithSecret } from '../schemas.ts';
import { rotateSecret } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/webhooks/endpoints/:id/rotate-secret',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['webhooks'],
        summary: 'Rotate the signing secret; the old one keeps signing beside the new one for 24 h',
        params: EnvIdParams,
        response: respond(EndpointWithSecret),
      },
    },
    async (request) => ({
      data: await request.write((tx) => rotateSecret(tx, contextOf(deps, request), request.params)),
    }),
  );
}
