import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { listCustomers } from '../customers.ts';
import { Customer, CustomerListQuery } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/customers',
    {
      config: { auth: 'workspace' },
      schema: {
        tags: ['customers'],
        summary:
          'Customers of the workspace, newest first; search finds names, e-mail and external_id (case- and accent-insensitive) or a CPF/CNPJ exactly',
        params: EnvParams,
        querystring: CustomerListQuery,
        response: respond(Type.Array(Customer)),
      },
    },
    async (request) => ({ data: await listCustomers(deps.db, contextOf(deps, request), request.query) }),
  );
}
