import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { CreateEndpointBody, ENDPOINT_WITH_SECRET_EXAMPLE, EndpointWithSecret } from '../schemas.ts';
import { createEndpoint } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/webhooks/endpoints',
    {
      config: { auth: 'workspace', errors: [] },
      schema: {
        tags: ['webhooks'],
        summary: 'Create a webhook endpoint; its signing secret is shown once',
        description:
          "Registers a URL to receive the workspace's events of this environment, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). The signing secret is in this answer only: store it now. In live the URL must be https and public.",
        params: EnvParams,
        body: CreateEndpointBody,
        response: respond(EndpointWithSecret, { example: ENDPOINT_WITH_SECRET_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => createEndpoint(tx, contextOf(deps, request), request.body)),
    }),
  );
}
