import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, doc, EnvIdParams, respond, Uuid } from '../../../platform/schema.ts';
import { deleteEndpoint } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.delete(
    '/v1/:env/webhooks/endpoints/:id',
    {
      config: { auth: 'workspace', errors: ['not_found'] },
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook endpoint; its pending deliveries fail, its delivery log stays',
        description:
          'Deletes a webhook endpoint: nothing more is sent to it, its pending deliveries fail, and its delivery log stays readable.',
        params: EnvIdParams,
        response: respond(
          Type.Object({
            id: doc(Uuid, 'The id of the endpoint deleted.'),
            deleted: Type.Literal(true, { description: 'Always true.' }),
          }),
          {
            example: { id: '0194f430-af1b-7c2d-9e3f-4a5b6c7d8e9f', deleted: true },
          },
        ),
      },
    },
    async (request) => ({
      data: await request.write((tx) => deleteEndpoint(tx, contextOf(deps, request), request.params)),
    }),
  );
}
