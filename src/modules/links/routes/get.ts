import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_LINK_EXAMPLE, PaymentLink } from '../schemas.ts';
import { getLink } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/payment-links/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'payment_link', errors: ['not_found'] },
      schema: {
        tags: ['payment-links'],
        summary: 'One payment link',
        description: 'One payment link by its id, with its URL, status and design.',
        params: EnvIdParams,
        response: respond(PaymentLink, { example: PAYMENT_LINK_EXAMPLE }),
      },
    },
    async (request) => ({ data: await getLink(deps.db, contextOf(deps, request), request.params) }),
  );
}
