import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { getQuote } from '../quotes.ts';
import { QUOTE_EXAMPLE, Quote } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/rfq/quotes/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'quote', errors: ['not_found'] },
      schema: {
        tags: ['rfq'],
        summary: 'An RFQ quote (status open, executed or expired)',
        description:
          'One RFQ quote by its id: open until expires_at, executed (with executed_payment_id and fill_price) or expired.',
        params: EnvIdParams,
        response: respond(Quote, { example: QUOTE_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await getQuote(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
