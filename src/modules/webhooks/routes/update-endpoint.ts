import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { ENDPOINT_EXAMPLE, Endpoint, UpdateEndpointBody } from '../schemas.ts';
import { updateEndpoint } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.patch(
    '/v1/:env/webhooks/endpoints/:id',
    {
      config: { auth: 'workspace', errors: ['not_found'] },
      schema: {
        tags: ['webhooks'],
        summary: 'Change the URL, event types, description or status of a webhook endpoint',
        description:
          'Disabling fails the deliveries still pending for the endpoint; enabling it again does not resend them (retry them one by one).',
        params: EnvIdParams,
        body: UpdateEndpointBody,
        response: respond(Endpoint, {
          example: { ...ENDPOINT_EXAMPLE, status: 'disabled', disabled_reason: 'disabled_by_user' },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        updateEndpoint(tx, contextOf(deps, request), { ...request.body, id: request.params.id }),
      ),
    }),
  );
}
