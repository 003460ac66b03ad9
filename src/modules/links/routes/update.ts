import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_LINK_EXAMPLE, PaymentLink, UpdateLinkBody } from '../schemas.ts';
import { updateLink } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.patch(
    '/v1/:env/payment-links/:id',
    {
      config: {
        auth: 'any',
        subaccount: true,
        record: 'payment_link',
        errors: ['not_found', 'invalid_amount', 'invalid_state'],
      },
      schema: {
        tags: ['payment-links'],
        summary:
          'Change a payment link: title, description, allow_custom_amount, design, status (active/inactive)',
        description:
          "Changes a link's title, description, design, open amount or status; inactive stops it taking payments. The amount, slug and party do not change.",
        params: EnvIdParams,
        body: UpdateLinkBody,
        response: respond(PaymentLink, { example: { ...PAYMENT_LINK_EXAMPLE, status: 'inactive' } }),
      },
    },
    async (request) => {
      const ctx = contextOf(deps, request);
      const input = { ...request.body, id: request.params.id };
      return { data: await request.write((tx) => updateLink(tx, ctx, input)) };
    },
  );
}
