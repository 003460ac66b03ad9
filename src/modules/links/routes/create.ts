import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { CreateLinkBody, PaymentLink } from '../schemas.ts';
import { createLink } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/payment-links',
    {
      config: { auth: 'any', subaccount: true },
      schema: {
        tags: ['payment-links'],
        summary:
          'Create a payment link: a fixed amount_minor, or allow_custom_amount for an open amount; its hosted page is /pay/{slug}',
        params: EnvParams,
        body: CreateLinkBody,
        response: respond(PaymentLink),
      },
    },
    async (request) => {
      const ctx = contextOf(deps, request);
      return { data: await request.write((tx) => createLink(tx, ctx, request.body)) };
    },
  );
}
