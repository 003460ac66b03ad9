import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { listPrices } from '../prices.ts';
import { Price, PricesQuery } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/prices',
    {
      config: { auth: 'any', errors: ['provider_unavailable'] },
      schema: {
        tags: ['prices'],
        summary: 'Current stablecoin prices in BRL (the mid of the provider’s book)',
        description:
          'An unknown symbol is 400 invalid_request; a price source that is down, stale or (live) not configured is 503 provider_unavailable.',
        params: EnvParams,
        querystring: PricesQuery,
        response: respond(Type.Array(Price), {
          example: [{ symbol: 'USDT', price: '5.44', currency: 'BRL', as_of: '2026-11-26T03:00:00.000Z' }],
        }),
      },
    },
    async (request) => ({ data: await listPrices(contextOf(deps, request), request.query) }),
  );
}
