/** POST /v1/{env}/pix/due-charges/batch: many due-date charges, each with its own result. */

import type { Deps } from '../../../platform/context.ts';
import { actOnce } from '../../../platform/idempotency.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { createDueChargeBatch } from '../due-charges-batch.ts';
import {
  DUE_CHARGE_BATCH_EXAMPLE,
  DueChargeBatchBody,
  type DueChargeBatchRequest,
  type DueChargeBatchResponse,
  DueChargeBatchResult,
  MAX_BATCH_ITEMS,
} from '../due-schemas.ts';
import { DUE_CHARGE_ERRORS } from './due-charges-create.ts';

export type { DueChargeBatchRequest, DueChargeBatchResponse };

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/pix/due-charges/batch',
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
        summary: `Create up to ${MAX_BATCH_ITEMS} PIX charges with a due date, each with its own result`,
        description: `Each item is checked as POST /pix/due-charges checks it; results[] holds, in order, each item's charge or its error (an item in error writes nothing; the others are created together). In live the valid items go to the PSP as one lote (PUT /lotecobv/{id}); an item the PSP denies gets invalid_request; one it has not created within a few seconds is recorded with pix_qr_code null, filled in once the PSP has created it. The whole request answers 400 invalid_request only when its own shape is wrong (no items, more than ${MAX_BATCH_ITEMS}, unknown fields); 503 provider_unavailable when the PSP cannot take the lote. Item errors: ${DUE_CHARGE_ERRORS}`,
        params: EnvParams,
        body: DueChargeBatchBody,
        response: respond(DueChargeBatchResult, { example: DUE_CHARGE_BATCH_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await actOnce(deps, request, () =>
        createDueChargeBatch(contextOf(deps, request), request.body, (fn) => request.write(fn)),
      ),
    }),
  );
}
