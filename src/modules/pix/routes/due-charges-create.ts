/** POST /v1/{env}/pix/due-charges: a PIX charge with a due date (the BCB API Pix's CobV). */

import type { Deps } from '../../../platform/context.ts';
import { actOnce } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { createDueCharge } from '../due-charges.ts';
import {
  DUE_CHARGE_EXAMPLE,
  DueCharge,
  DueChargeBody,
  type DueChargeRequest,
  type DueChargeResponse,
} from '../due-schemas.ts';

export type { DueChargeRequest, DueChargeResponse };

export const DUE_CHARGE_ERRORS =
  '400 invalid_amount (amount_minor not a positive amount, above the BR Code maximum, or not above the cash-in fee); 400 invalid_request with details naming the field (due_date not a date or before today in São Paulo, the debtor document not a valid CPF or CNPJ, a modality the term does not have or one counting business days: interest 5–8, discount 4 and 6, a value or percent missing or sent where the modality takes the other, a rebate or discount of the whole amount or more, discount dates after due_date or repeated, unknown fields); 400 unsupported_currency; 403 forbidden (a party outside a party-scoped key); 404 not_found (unknown party); 503 provider_unavailable (live: the PSP refused or is away).';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/pix/due-charges',
    {
      config: {
        auth: 'any',
        subaccount: true,
        errors: [
          'invalid_amount',
          'invalid_request',
          'unsupported_currency',
          'forbidden',
          'not_found',
          'provider_unavailable',
          'conflict',
        ],
      },
      schema: {
        tags: ['pix'],
        summary:
          'Create a PIX charge with a due date (CobV): fine, interest, rebate and discounts by the standard',
        description: `A charge addressed to a debtor, payable until due_date + days_valid_after_due (São Paulo). What the payer pays depends on the day: amount_minor, plus a fine once and interest per day when late, minus the rebate, minus the discount when early (docs/guides/due-date-charges.md shows how each modality is reckoned and rounded). It is a payment of kind pix_cash_in: paid, the amount paid becomes its amount_minor and the net is credited to the party. In live it is PUT /cobv/{txid} at the PSP (BCB API Pix); in sandbox, days are the workspace's sandbox clock's (POST /v1/sandbox/test-clock/advance). A separate route from /pix/charges because its body is another shape: an immediate charge has an expiry in seconds and one fixed amount. Errors: ${DUE_CHARGE_ERRORS}`,
        params: EnvParams,
        body: DueChargeBody,
        response: respond(DueCharge, { example: DUE_CHARGE_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await actOnce(deps, request, () =>
        createDueCharge(contextOf(deps, request), request.body, (fn) => request.write(fn)),
      ),
    }),
  );
}
