import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { listCustomers } from '../customers.ts';
import { CUSTOMER_EXAMPLE, Customer, CustomerListQuery } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/customers',
    {
      config: { auth: 'workspace', errors: [] },
      schema: {
        tags: ['customers'],
        summary:
          'Customers of the workspace, newest first; search finds names, e-mail and external_id (case- and accent-insensitive) or a CPF/CNPJ exactly',
        description:
          'The customers of the workspace, newest first, found by name, e-mail, external_id or document, and filtered by status; page with limit and cursor.',
        params: EnvParams,
        querystring: CustomerListQuery,
        response: respond(Type.Array(Customer), { example: [CUSTOMER_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listCustomers(deps.db, contextOf(deps, request), request.query) }),
  );
}
