import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { PUBLIC_SECURITY, publicRouteOptions } from '../../../platform/hosted-page/public-route.ts';
import { actOnce } from '../../../platform/idempotency.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { startCheckout } from '../checkout.ts';
import { CheckoutBody, CheckoutCharge, SlugParams } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/pay/:slug/checkout',
    {
      ...publicRouteOptions(deps, [
        'not_found',
        'invalid_amount',
        'invalid_state',
        'production_not_enabled',
        'provider_unavailable',
        'conflict',
      ]),
      schema: {
        tags: ['checkout'],
        summary:
          "Start paying a payment link (public): a PIX charge for the link's amount, or the buyer's on an open-amount link; answers the BR Code and its QR image",
        security: [...PUBLIC_SECURITY],
        description:
          'Public, no credentials: what the hosted page calls when the payer confirms. Creates the PIX charge of the link for this payer and answers its BR Code (text and PNG). Send Idempotency-Key so a double click makes one charge.',
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
        response: respond(CheckoutCharge, {
          example: {
            id: '0194f4a0-168c-7d9e-8f0a-1b2c3d4e5f60',
            status: 'created',
            amount_minor: '4990',
            currency: 'BRL',
            pix_qr_code:
              '00020101021226830014br.gov.bcb.pix2561pix.example.com/qr/v2/9a8b7c5204000053039865404049.905802BR6304EF12',
            qr_code_png: 'data:image/png;base64,iVBORw0KGgo=',
            expires_at: '2026-11-26T04:00:00.000Z',
          },
        }),
      },
    },
    async (request) => ({
      data: await startCheckout(
        deps,
        { slug: request.params.slug, ip: request.ip, requestId: request.id },
        request.body,
        {
          write: (keyOwner, fn) => request.write(fn, { keyOwner }),
          once: (keyOwner, act) => actOnce(deps, request, act, keyOwner),
        },
      ),
    }),
  );
}
