/** GET /v1/{env}/pix/due-charges: due-date charges, newest first, filtered and paged. */
import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { listDueCharges } from '../due-charges-list.ts';
import { DUE_CHARGE_EXAMPLE, DueCharge, DueChargeListQuery } from '../due-schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/pix/due-charges',
    {
      config: { auth: 'any', subaccount: true, errors: ['forbidden', 'not_found'] },
      schema: {
        tags: ['pix'],
        summary: 'PIX charges with a due date, newest first; cursor is the id of the last charge seen',
        description:
          "The environment's due-date charges, each as GET /pix/due-charges/{id} answers it (the amount due today included), newest first. Filter by status (cancelled is its own status here), by due date (due_date_from inclusive, due_date_to exclusive, São Paulo dates) and by party; a party-scoped key sees only its party's charges. Page with limit and cursor (the id of the last charge of the page before; anything but a UUID is 400 invalid_request). Errors: 403 forbidden (party_id outside a party-scoped key); 404 not_found (unknown party_id).",
        params: EnvParams,
        querystring: DueChargeListQuery,
        response: respond(Type.Array(DueCharge), { example: [DUE_CHARGE_EXAMPLE] }),
      },
    },
    async (request) => ({
      data: await listDueCharges(deps.db, contextOf(deps, request), request.query),
    }),
  );
}
