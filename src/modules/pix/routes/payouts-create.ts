import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { createPayout } from '../payouts.ts';
import { PayoutBody } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/pix/payouts',
    {
      config: { auth: 'any', subaccount: true, moneyMoving: true, groupCommit: true },
      schema: {
        tags: ['pix'],
        summary:
          'Start a PIX payout; amount + fee are debited at once. With an API key it pays the settlement key.',
        description:
          'Checks, in order: body (400), paying party (403 forbidden when blocked or outside a party-scoped key), settlement key (403 settlement_key_required), KYC in live (403 kyc_not_approved), balance (422 insufficient_balance), provider (503 provider_unavailable). Send Idempotency-Key: a retry never pays twice.',
        params: EnvParams,
        body: PayoutBody,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await request.write((tx) => createPayout(tx, contextOf(deps, request), request.body)),
    }),
  );
}
