import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { PUBLIC_SECURITY, publicRouteOptions } from '../checkout/public-route.ts';
import { checkoutStatus } from '../checkout.ts';
import { PublicPayment, SlugPaymentParams } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/pay/:slug/payments/:id',
    {
      ...publicRouteOptions(deps),
      schema: {
        tags: ['checkout'],
        summary: "A checkout payment's status and amount (public; what the hosted page follows)",
        security: [...PUBLIC_SECURITY],
        params: SlugPaymentParams,
        response: respond(PublicPayment),
      },
    },
    async (request) => ({ data: await checkoutStatus(deps, request.params) }),
  );
}
