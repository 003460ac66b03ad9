import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { PaymentLink, UpdateLinkBody } from '../schemas.ts';
import { updateLink } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.patch(
    '/v1/:env/payment-links/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'payment_link' },
      schema: {
        tags: ['payment-links'],
        summary:
          'Change a payment link: title, description, allow_custom_amount, design, status (active/inactive)',
        params: EnvIdParams,
        body: UpdateLinkBody,
        response: respond(PaymentLink),
      },
    },
    async (request) => {
      const ctx = contextOf(deps, request);
      const input = { ...request.body, id: request.params.id };
      return { data: await request.write((tx) => updateLink(tx, ctx, input)) };
    },
  );
}
