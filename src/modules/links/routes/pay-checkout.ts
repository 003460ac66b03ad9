import { Type } from 'typebox';
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
        headers: Type.Object({
          'idempotency-key': Type.Optional(
            Type.String({
              description:
                'The hosted page sends one per page load (a new one when the buyer changes the form): a re-send with the same key and body replays the charge it made (Idempotency-Replayed: true) rather than making another; another body is 409 idempotency_key_reuse.',
            }),
          ),
        }),
        body: CheckoutBody,
        response: respond(CheckoutCharge),
      },
    },
    async (request) => ({
      data: await startCheckout(
        deps,
        { slug: request.params.slug, ip: request.ip, requestId: request.id },
        request.body,
        (keyOwner, fn) => request.write(fn, { keyOwner }),
      ),
    }),
  );
}
