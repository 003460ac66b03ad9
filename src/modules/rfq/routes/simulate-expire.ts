import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams } from '../../../platform/schema.ts';
import { QUOTE_EXAMPLE, Quote } from '../schemas.ts';
import { expireQuote } from '../simulate.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/quotes/:id/expire',
    {
      // Sandbox helpers of a group belong to it: rfq is an acting group.
      config: {
        auth: 'any',
        subaccount: true,
        sandboxOnly: true,
        record: 'quote',
        errors: ['not_found', 'quote_already_executed'],
      },
      schema: {
        tags: ['sandbox'],
        summary: 'This quote passes its expires_at now (executing it is then 422 quote_expired)',
        description:
          "Sandbox only: the quote's expires_at becomes now, so executing it answers 422 quote_expired. An executed quote is 409 quote_already_executed.",
        params: SandboxEnvIdParams,
        response: respond(Quote, { example: { ...QUOTE_EXAMPLE, status: 'expired' } }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => expireQuote(tx, contextOf(deps, request), request.params)),
    }),
  );
}
