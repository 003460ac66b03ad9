import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { API_KEY_EXAMPLE, CreateApiKeyBody, CreatedApiKey } from '../schemas.ts';
import { createApiKey } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/api-keys',
    {
      config: { auth: 'session', errors: ['not_found'] },
      schema: {
        tags: ['owner'],
        summary: 'Create an API key for this environment; the secret is shown once',
        description:
          'Creates an API key of this environment (sandbox keys for /v1/sandbox, live keys for /v1/live). The secret is in this answer only: store it now. With party_id the key is scoped to that party. Dashboard session only.',
        params: EnvParams,
        body: CreateApiKeyBody,
        response: respond(CreatedApiKey, {
          example: {
            ...API_KEY_EXAMPLE,
            last_used_at: null,
            secret: 'lastro_test_sk_4mN8pQ2rT6vX0zB3dF7hJ1kL5nP9sU2wY6aC0eG4x9Qz',
          },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => createApiKey(tx, contextOf(deps, request), request.body)),
    }),
  );
}
