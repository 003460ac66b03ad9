import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { createQuote } from '../quotes.ts';
import { QUOTE_EXAMPLE, Quote, QuoteBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/rfq/quote',
    {
      config: {
        auth: 'any',
        subaccount: true,
        errors: ['unsupported_currency', 'not_found', 'provider_unavailable'],
      },
      schema: {
        tags: ['rfq'],
        summary:
          'A firm quote: pay base_amount_minor of base_currency, receive quote_amount_minor of quote_currency',
        description:
          'Valid for RFQ_QUOTE_TTL_SECONDS (default 30). The fee is in the quote currency. Same currency on both sides, USDT↔USDC, or an amount buying under one minor unit: 400. No price source: 503 provider_unavailable.',
        params: EnvParams,
        body: QuoteBody,
        response: respond(Quote, { example: QUOTE_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await createQuote(contextOf(deps, request), request.body, (fn) => request.write(fn)),
    }),
  );
}
