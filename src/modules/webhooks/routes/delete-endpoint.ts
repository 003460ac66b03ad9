import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond, Uuid } from '../../../platform/schema.ts';
import { deleteEndpoint } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.delete(
    '/v1/:env/webhooks/endpoints/:id',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook endpoint; its pending deliveries fail, its delivery log stays',
        params: EnvIdParams,
        response: respond(Type.Object({ id: Uuid, deleted: Type.Literal(true) })),
      },
    },
    async (request) => ({
      data: await request.write((tx) => deleteEndpoint(tx, contextOf(deps, request), request.params)),
    }),
  );
}
