import type { Deps } from '../../../platform/context.ts';
import { PUBLIC_SECURITY, publicRouteOptions } from '../../../platform/hosted-page/public-route.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { checkoutStatus } from '../checkout.ts';
import { PublicPayment, SlugPaymentParams } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/pay/:slug/payments/:id',
    {
      ...publicRouteOptions(deps, ['not_found']),
      schema: {
        tags: ['checkout'],
        summary: "A checkout payment's status and amount (public; what the hosted page follows)",
        description:
          "Public, no credentials: the status and amount of a payment made through this link's checkout, which the hosted page polls until completed or expired.",
        security: [...PUBLIC_SECURITY],
        params: SlugPaymentParams,
        response: respond(PublicPayment, {
          example: {
            id: '0194f4a0-168c-7d9e-8f0a-1b2c3d4e5f60',
            status: 'completed',
            amount_minor: '4990',
            currency: 'BRL',
          },
        }),
      },
    },
    async (request) => ({ data: await checkoutStatus(deps, request.params) }),
  );
}
