import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { executeQuote } from '../execute.ts';
import { ExecuteBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/rfq/execute',
    {
      config: { auth: 'any', subaccount: true, moneyMoving: true },
      schema: {
        tags: ['rfq'],
        summary: 'Execute an open quote: debit the base amount, credit the quote amount, atomically',
        description:
          'Answers the completed rfq_settlement payment. 404 not_found, 409 quote_already_executed, 422 quote_expired, 422 insufficient_balance (nothing moves, the quote stays open). Send Idempotency-Key: a retry replays the settlement.',
        params: EnvParams,
        body: ExecuteBody,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await request.write((tx) => executeQuote(tx, contextOf(deps, request), request.body)),
    }),
  );
}
