import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from '../../config.ts';
import { documentRoute, markOptionalBodies, type OpenApiDocument } from '../openapi.ts';
import type { App } from '../schema.ts';
import { declaredErrorsCheck } from './declared-errors.ts';

const DESCRIPTION =
  'PIX and stablecoin payments on one double-entry ledger. Every /v1/{env} call carries Authorization: Bearer <key or session> and X-Workspace-Id. Amounts are strings of minor units (`"1050"` is R$ 10.50); timestamps are ISO 8601 UTC. Each operation lists the error codes it can answer, by status. Guides (quick start, authentication, idempotency, PIX, crypto, RFQ, payment links, webhooks, sandbox, errors, going live): [/docs/guides](/docs/guides). Typed TypeScript client: @lastro/sdk (packages/sdk).';

/**
 * The document's tags in reading order: from an account to money in, across and out, then what
 * tells you about it. A route's tag must be listed here (the route-catalogue test checks).
 */
export const TAGS = [
  {
    name: 'owner',
    description: 'Your account: sign-up, login and 2FA, API keys, the workspace, its audit log.',
  },
  { name: 'subaccounts', description: 'Child workspaces of yours, acted on with X-Subaccount-Id.' },
  { name: 'customers', description: 'The parties you pay and charge: people and companies.' },
  { name: 'kyc', description: 'Identity checks of a party, and requests for information.' },
  { name: 'ledger', description: 'Balances per currency and the statement of ledger entries.' },
  { name: 'payments', description: 'Every payment of every rail, as one list.' },
  {
    name: 'pix',
    description: 'PIX charges (cash-in), payouts, refunds, unassigned receipts and the settlement key.',
  },
  { name: 'reconciliation', description: "Daily comparison of the ledger with the PSP's records." },
  { name: 'prices', description: 'Indicative prices of the currency pairs.' },
  { name: 'rfq', description: 'Firm quotes between BRL and stablecoins, and their execution.' },
  { name: 'wallets', description: 'Deposit wallets on each network and the whitelist of send addresses.' },
  { name: 'crypto', description: 'Stablecoin sends to whitelisted addresses.' },
  { name: 'disputes', description: 'Disputes opened against your payments, and the defense you send.' },
  { name: 'subscriptions', description: 'Recurring charges of a customer on a schedule.' },
  { name: 'payment-links', description: 'Reusable links a payer opens to pay by PIX, with splits.' },
  { name: 'checkout', description: 'The public pages and calls of a payment link, without credentials.' },
  { name: 'webhooks', description: 'Endpoints that receive signed events, and their deliveries.' },
  { name: 'events', description: 'The events the API emitted, as webhooks carry them.' },
  { name: 'sandbox', description: 'Sandbox-only helpers that simulate what the rails would do.' },
  { name: 'health', description: 'Liveness and readiness of the service.' },
  { name: 'dashboard', description: 'The web dashboard.' },
] as const;

/** Where the API is reached: this machine, and the public address when PUBLIC_BASE_URL differs. */
export function serversOf(config: Pick<Config, 'port' | 'publicBaseUrl'>) {
  const local = `http://127.0.0.1:${config.port}`;
  const servers = [{ url: local, description: 'This server, from the machine it runs on' }];
  if (config.publicBaseUrl !== local)
    servers.unshift({ url: config.publicBaseUrl, description: 'Public address' });
  return servers;
}

/** The OpenAPI document of every route registered after this, and its pages under /docs. */
export async function docs(app: App, config: Pick<Config, 'port' | 'publicBaseUrl'>): Promise<void> {
  declaredErrorsCheck(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Lastro API', version: '1.0.0', description: DESCRIPTION },
      servers: serversOf(config),
      tags: TAGS.map((tag) => ({ ...tag })),
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
    transform: ({ schema, url, route }) => ({
      schema: documentRoute(schema as Record<string, unknown>, route) as never,
      url,
    }),
    transformObject: (document) =>
      markOptionalBodies((document as unknown as { openapiObject: OpenApiDocument }).openapiObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}

/** GET /openapi.json: the document as the SDK is generated from it. */
export function openapiRoute(app: App): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
