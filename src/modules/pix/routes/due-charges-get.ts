/** GET /v1/{env}/pix/due-charges/{id}: a due-date charge with what paying it today costs. */
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { getDueCharge } from '../due-charges.ts';
import { DUE_CHARGE_EXAMPLE, DueCharge, type DueChargeResponse } from '../due-schemas.ts';

export type { DueChargeResponse };

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/pix/due-charges/:id',
    {
      config: { auth: 'any', subaccount: true, record: 'payment', errors: ['not_found'] },
      schema: {
        tags: ['pix'],
        summary: 'A PIX charge with a due date, with the amount due today',
        description:
          "The charge, its terms and amount_due_today_minor: what paying it today (São Paulo; the sandbox clock's day in sandbox) costs, part by part, 0 once it is paid, expired or past its last payable day. The same payment is GET /v1/{env}/payments/{id}. Errors: 404 not_found (unknown id, another workspace's or environment's, or a charge without a due date).",
        params: EnvIdParams,
        response: respond(DueCharge, { example: DUE_CHARGE_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await getDueCharge(deps.db, contextOf(deps, request), request.params.id),
    }),
  );
}
