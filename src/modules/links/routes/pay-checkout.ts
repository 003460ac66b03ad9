import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { PUBLIC_SECURITY, publicRouteOptions } from '../checkout/public-route.ts';
import { startCheckout } from '../checkout.ts';
import { CheckoutBody, CheckoutCharge, SlugParams } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/pay/:slug/checkout',
    {
      ...publicRouteOptions(deps),
      schema: {
        tags: ['checkout'],
        summary:
          "Start paying a payment link (public): a PIX charge for the link's amount, or the buyer's on an open-amount link; answers the BR Code and its QR image",
        security: [...PUBLIC_SECURITY],
        params: SlugParams,
        body: CheckoutBody,
        response: respond(CheckoutCharge),
      },
    },
    async (request) => ({
      data: await startCheckout(
        deps,
        { slug: request.params.slug, ip: request.ip, requestId: request.id },
        request.body,
      ),
    }),
  );
}
