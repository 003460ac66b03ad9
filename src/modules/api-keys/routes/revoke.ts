import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { API_KEY_EXAMPLE, ApiKey } from '../schemas.ts';
import { revokeApiKey } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.delete(
    '/v1/:env/api-keys/:id',
    {
      config: { auth: 'session', errors: ['not_found'] },
      schema: {
        tags: ['owner'],
        summary: 'Revoke an API key at once',
        description:
          'Revokes an API key at once: its next call is 401 api_key_revoked. Answers the key as it is now. Revoking a revoked key answers it unchanged.',
        params: EnvIdParams,
        response: respond(ApiKey, {
          example: {
            ...API_KEY_EXAMPLE,
            revoked_at: '2026-11-26T03:10:00.000Z',
            revoked_reason: 'revoked by the owner',
          },
        }),
      },
    },
    async (request) => ({
      data: await deps.db.transaction((tx) => revokeApiKey(tx, contextOf(deps, request), request.params)),
    }),
  );
}
