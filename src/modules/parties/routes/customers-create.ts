import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { createCustomer } from '../customers.ts';
import { CUSTOMER_EXAMPLE, Customer, CustomerCreateBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/customers',
    {
      config: { auth: 'workspace', errors: ['conflict'] },
      schema: {
        tags: ['customers'],
        summary: 'Create a customer (a party of kind person or business); workspace-level callers only',
        description:
          'document_number is checked against document_type (CPF or CNPJ, alphanumeric CNPJ included) and stored encrypted. external_id is unique per workspace (409 conflict). Emits customer.created.',
        params: EnvParams,
        body: CustomerCreateBody,
        response: respond(Customer, { example: { ...CUSTOMER_EXAMPLE, kyc_status: 'not_started' } }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => createCustomer(tx, contextOf(deps, request), request.body)),
    }),
  );
}
