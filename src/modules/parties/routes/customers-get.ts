import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { getCustomer } from '../customers.ts';
import { CUSTOMER_EXAMPLE, Customer } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/customers/:id',
    {
      config: { auth: 'any', record: 'customer', errors: ['not_found'] },
      schema: {
        tags: ['customers'],
        summary: 'A customer; a party-scoped key reads only its own party',
        description:
          'One customer by its id, with its KYC status in the environment of the path. A party-scoped key reads only its own party; another is 404.',
        params: EnvIdParams,
        response: respond(Customer, { example: CUSTOMER_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await getCustomer(deps.db, contextOf(deps, request), { id: request.params.id }),
    }),
  );
}
