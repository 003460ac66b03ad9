import type { Deps } from '../../../platform/context.ts';
import { actOnce } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import { createCharge } from '../charges.ts';
import { ChargeBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/pix/charges',
    {
      config: {
        auth: 'any',
        subaccount: true,
        errors: [
          'invalid_amount',
          'unsupported_currency',
          'not_found',
          'kyc_not_approved',
          'provider_unavailable',
          'conflict',
        ],
      },
      schema: {
        tags: ['pix'],
        summary:
          'Create a PIX charge (cash-in): a BR Code the payer pays; the net amount is credited when paid',
        description:
          'Creates a PIX charge: a BR Code (pix_qr_code, also as an image at /payments/{id}/qr.png) the payer pays from any bank app before expires_at. When paid, the amount less the cash-in fee is credited to the party and payment.completed is sent. Amounts are strings of minor units.',
        params: EnvParams,
        body: ChargeBody,
        response: respond(Payment, {
          example: {
            ...PAYMENT_EXAMPLE,
            status: 'created',
            pix_tx_id: null,
            counterparty: null,
            completed_at: null,
            updated_at: PAYMENT_EXAMPLE.created_at,
          },
        }),
      },
    },
    async (request) => ({
      data: await actOnce(deps, request, () =>
        createCharge(contextOf(deps, request), request.body, (fn) => request.write(fn)),
      ),
    }),
  );
}
