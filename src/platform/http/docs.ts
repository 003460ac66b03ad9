import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { markOptionalBodies, type OpenApiDocument } from '../openapi.ts';
import type { App } from '../schema.ts';

const DESCRIPTION =
  'PIX and stablecoin payments on one double-entry ledger. Every /v1/{env} call carries Authorization: Bearer <key or session> and X-Workspace-Id. Guides (quick start, authentication, idempotency, PIX, crypto, RFQ, payment links, webhooks, sandbox, errors, going live): [/docs/guides](/docs/guides). Typed TypeScript client: @lastro/sdk (packages/sdk).';

/** The OpenAPI document of every route registered after this, and its pages under /docs. */
export async function docs(app: App): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Lastro API', version: '1.0.0', description: DESCRIPTION },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'lastro_test_sk_…, lastro_live_sk_… or lastro_sess_…',
          },
          workspace: { type: 'apiKey', in: 'header', name: 'X-Workspace-Id' },
          session: { type: 'http', scheme: 'bearer', description: 'a dashboard session: lastro_sess_…' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'lastro_session' },
        },
      },
      security: [{ bearer: [], workspace: [] }],
    },
    transformObject: (document) =>
      markOptionalBodies((document as unknown as { openapiObject: OpenApiDocument }).openapiObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}

/** GET /openapi.json: the document as the SDK is generated from it. */
export function openapiRoute(app: App): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
