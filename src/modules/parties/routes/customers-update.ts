import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { updateCustomer } from '../customers.ts';
import { CUSTOMER_EXAMPLE, Customer, CustomerPatchBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.patch(
    '/v1/:env/customers/:id',
    {
      config: { auth: 'workspace', record: 'customer', errors: ['not_found', 'conflict'] },
      schema: {
        tags: ['customers'],
        summary: 'Update a customer; workspace-level callers only (spec rule 8)',
        description:
          "status blocked stops the customer's money: its payouts answer 403 forbidden. Emits customer.updated.",
        params: EnvIdParams,
        body: CustomerPatchBody,
        response: respond(Customer, { example: { ...CUSTOMER_EXAMPLE, email: 'maria.silva@example.com' } }),
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        updateCustomer(tx, contextOf(deps, request), { ...request.body, id: request.params.id }),
      ),
    }),
  );
}
