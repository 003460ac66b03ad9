import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { CreateLinkBody, PAYMENT_LINK_EXAMPLE, PaymentLink } from '../schemas.ts';
import { createLink } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/payment-links',
    {
      config: {
        auth: 'any',
        subaccount: true,
        errors: ['invalid_amount', 'unsupported_currency', 'slug_taken', 'not_found'],
      },
      schema: {
        tags: ['payment-links'],
        summary:
          'Create a payment link: a fixed amount_minor, or allow_custom_amount for an open amount; its hosted page is /pay/{slug}',
        description:
          "Creates a reusable payment link: a hosted checkout page at url where payers pay by PIX, a fixed amount or one they choose. What it collects is credited to the party, divided by the link's splits when it has some.",
        params: EnvParams,
        body: CreateLinkBody,
        response: respond(PaymentLink, { example: PAYMENT_LINK_EXAMPLE }),
      },
    },
    async (request) => {
      const ctx = contextOf(deps, request);
      return { data: await request.write((tx) => createLink(tx, ctx, request.body)) };
    },
  );
}
