import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams, SandboxEnvParams } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';
import {
  SimulateMedReturnBody,
  SimulateUnassignedBody,
  UNASSIGNED_PIX_EXAMPLE,
  UnassignedPix,
} from '../schemas.ts';
import { simulateMedReturn } from '../simulate.ts';
import { simulateUnassigned } from '../unassigned.ts';

const tags = ['sandbox'];

/** What the rail does unasked, in sandbox: a MED return on a paid charge, a PIX without a charge. */
export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/payments/:id/med-return',
    {
      config: {
        auth: 'any',
        subaccount: true,
        record: 'payment',
        moneyMoving: true,
        sandboxOnly: true,
        errors: ['not_found', 'invalid_amount', 'invalid_state'],
      },
      schema: {
        tags,
        summary:
          'The PSP returns all or part of this paid PIX charge to the payer under MED; the party is debited, what it cannot cover it owes',
        description:
          'Sandbox only: the PSP returns all or part of a completed PIX cash-in to its payer under MED (a pix_med_return payment related to the charge). The party is debited at once; what its balance cannot cover it owes (owed_minor), paid first from its next credits.',
        params: SandboxEnvIdParams,
        body: SimulateMedReturnBody,
        response: respond(Payment, {
          example: {
            ...PAYMENT_EXAMPLE,
            id: '0194f4c0-38ae-7fb0-8c2d-3e4f5a6b7c8d',
            kind: 'pix_med_return',
            amount_minor: '5000',
            fee_minor: '0',
            pix_qr_code: null,
            pix_txid: null,
            metadata: {},
            idempotency_key: null,
            related_payment_id: PAYMENT_EXAMPLE.id,
            expires_at: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await request.write((tx) =>
        simulateMedReturn(tx, contextOf(deps, request), { id: request.params.id, ...request.body }),
      ),
    }),
  );
  app.post(
    '/v1/:env/simulate/pix/unassigned',
    {
      config: { auth: 'workspace', subaccount: true, moneyMoving: true, sandboxOnly: true, errors: [] },
      schema: {
        tags,
        summary: 'A payer sends a PIX to the sandbox key without a txid: it is held, unassigned',
        description:
          "Sandbox only: a payer sends a PIX to the workspace's key without the txid of a charge; it is held as unassigned until assigned to a party or returned (GET /v1/{env}/pix/unassigned).",
        params: SandboxEnvParams,
        body: SimulateUnassignedBody,
        response: respond(UnassignedPix, { example: UNASSIGNED_PIX_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await request.write((tx) => simulateUnassigned(tx, contextOf(deps, request), request.body)),
    }),
  );
}
