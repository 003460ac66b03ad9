import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { CreateEndpointBody, EndpointWithSecret } from '../schemas.ts';
import { createEndpoint } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/webhooks/endpoints',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['webhooks'],
        summary: 'Create a webhook endpoint; its signing secret is shown once',
        params: EnvParams,
        body: CreateEndpointBody,
        response: respond(EndpointWithSecret),
      },
    },
    async (request) => ({
      data: await request.write((tx) => createEndpoint(tx, contextOf(deps, request), request.body)),
    }),
  );
}
