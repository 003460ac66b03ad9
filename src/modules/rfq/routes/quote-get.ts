import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { getQuote } from '../quotes.ts';
import { Quote } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/rfq/quotes/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'quote' },
      schema: {
        tags: ['rfq'],
        summary: 'An RFQ quote (status open, executed or expired)',
        params: EnvIdParams,
        response: respond(Quote),
      },
    },
    async (request) => ({
      data: await getQuote(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
