import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { LinkListQuery, PAYMENT_LINK_EXAMPLE, PaymentLink } from '../schemas.ts';
import { listLinks } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payment-links',
    {
      config: { auth: 'any', subaccount: true, errors: [] },
      schema: {
        tags: ['payment-links'],
        summary: 'Payment links, newest first; cursor is the id of the last link seen',
        description:
          'The payment links of the workspace parties, newest first, filtered by party; page with limit and cursor.',
        params: EnvParams,
        querystring: LinkListQuery,
        response: respond(Type.Array(PaymentLink), { example: [PAYMENT_LINK_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listLinks(deps.db, contextOf(deps, request), request.query) }),
  );
}
