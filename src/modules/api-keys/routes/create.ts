import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { CreateApiKeyBody, CreatedApiKey } from '../schemas.ts';
import { createApiKey } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/api-keys',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['owner'],
        summary: 'Create an API key for this environment; the secret is shown once',
        params: EnvParams,
        body: CreateApiKeyBody,
        response: respond(CreatedApiKey),
      },
    },
    async (request) => ({
      data: await request.write((tx) => createApiKey(tx, contextOf(deps, request), request.body)),
    }),
  );
}
