import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { getCustomer } from '../customers.ts';
import { Customer } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/customers/:id',
    {
      config: { auth: 'any', record: 'customer' },
      schema: {
        tags: ['customers'],
        summary: 'A customer; a party-scoped key reads only its own party',
        params: EnvIdParams,
        response: respond(Customer),
      },
    },
    async (request) => ({
      data: await getCustomer(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
