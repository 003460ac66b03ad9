/** PATCH /v1/{env}/pix/due-charges/{id}: revise or cancel a waiting due-date charge (PATCH /cobv/{txid}). */
import type { Deps } from '../../../platform/context.ts';
import { answerIsStored, refuseKeyReuse } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { updateDueCharge } from '../due-charges-revise.ts';
import { DUE_CHARGE_EXAMPLE, DueCharge, DueChargePatchBody } from '../due-schemas.ts';

export default function route(app: App, deps: Deps) {
  app.patch(
    '/v1/:env/pix/due-charges/:id',
    {
      config: {
        auth: 'any',
        subaccount: true,
        record: 'payment',
        errors: [
          'invalid_amount',
          'invalid_request',
          'forbidden',
          'not_found',
          'invalid_state',
          'conflict',
          'provider_unavailable',
        ],
      },
      schema: {
        tags: ['pix'],
        summary: 'Revise a waiting PIX charge with a due date, or cancel it (status cancelled)',
        description:
          'Changes a charge that is waiting (status created, unpaid, within its last payable day): amount_minor, due_date, days_valid_after_due, debtor, and fine, interest, rebate or discount (null removes one). Only the fields sent change; the charge as it would stand is checked as POST /pix/due-charges checks a new one, and amount_due_today follows at once; the BR Code stays the one the payer has. status cancelled, sent alone, cancels it: it answers status cancelled, its payment becomes expired (failure_reason cancelled) and it can no longer be paid. Each change adds 1 to revision and emits due_charge.updated or due_charge.cancelled (with payment.updated or payment.expired). In live the PSP is asked first (PATCH /cobv/{txid} of the BCB API Pix; a cancellation is status REMOVIDA_PELO_USUARIO_RECEBEDOR): if it is away, 503 provider_unavailable and nothing changed. Send an Idempotency-Key to retry safely. Errors: 400 invalid_amount / invalid_request as on create (and status cancelled sent with other fields, unknown fields, an empty body); 403 forbidden; 404 not_found (unknown id, or a charge without a due date); 409 conflict (the answer stored for the Idempotency-Key expired between its check and its replay: send a new key); 409 idempotency_key_reuse (the key was sent with another body: refused before the PSP is asked, nothing changed); 422 invalid_state (the charge is paid, expired, cancelled or past its last payable day, or the PSP no longer has it active); 503 provider_unavailable.',
        params: EnvIdParams,
        body: DueChargePatchBody,
        response: respond(DueCharge, {
          example: { ...DUE_CHARGE_EXAMPLE, amount_minor: '15000', revision: 1 },
        }),
      },
    },
    async (request) => {
      // Before the PSP is asked: a key that guards another change must not change the cobv.
      await refuseKeyReuse(deps, request);
      const ctx = contextOf(deps, request);
      const input = {
        id: request.params.id,
        patch: request.body,
        replay: await answerIsStored(deps, request),
      };
      return { data: await updateDueCharge(ctx, input, (fn) => request.write(fn)) };
    },
  );
}
