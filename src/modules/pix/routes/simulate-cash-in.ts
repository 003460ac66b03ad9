import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvParams } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import { SimulateCashInBody } from '../schemas.ts';
import { simulateCashIn } from '../simulate.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/pix/cash-in',
    {
      config: {
        auth: 'any',
        subaccount: true,
        moneyMoving: true,
        groupCommit: true,
        interleave: true,
        sandboxOnly: true,
        errors: ['not_found', 'kyc_not_approved'],
      },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: a PIX payment received and settled at once, credited to the party',
        description:
          "Sandbox only: plays a payer sending a PIX that settles at once. The amount less the cash-in fee is credited to the party (the workspace's own when party_id is left out) and payment.completed is sent.",
        params: SandboxEnvParams,
        body: SimulateCashInBody,
        response: respond(Payment, {
          example: {
            ...PAYMENT_EXAMPLE,
            amount_minor: '10000',
            fee_minor: '100',
            description: null,
            pix_qr_code: null,
            pix_txid: null,
            metadata: {},
            idempotency_key: null,
            expires_at: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => simulateCashIn(tx, contextOf(deps, request), request.body)),
    }),
  );
}
