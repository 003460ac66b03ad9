import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { ENDPOINT_WITH_SECRET_EXAMPLE, EndpointWithSecret } from '../schemas.ts';
import { rotateSecret } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/webhooks/endpoints/:id/rotate-secret',
    {
      config: { auth: 'workspace', errors: ['not_found'] },
      schema: {
        tags: ['webhooks'],
        summary: 'Rotate the signing secret; the old one keeps signing beside the new one for 24 h',
        description:
          'Makes a new signing secret and answers it once; for 24 h the old one signs beside it (two signatures in webhook-signature), so receivers can switch without losing events.',
        params: EnvIdParams,
        response: respond(EndpointWithSecret, {
          example: {
            ...ENDPOINT_WITH_SECRET_EXAMPLE,
            previous_secret_expires_at: '2026-11-27T03:00:00.000Z',
          },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => rotateSecret(tx, contextOf(deps, request), request.params)),
    }),
  );
}
