import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { BODY_OPTIONAL } from '../../../platform/openapi.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams } from '../../../platform/schema.ts';
import { PAYMENT_EXAMPLE, Payment } from '../../payments/schemas.ts';

const PAYOUT_EXAMPLE = {
  ...PAYMENT_EXAMPLE,
  kind: 'pix_cash_out',
  amount_minor: '2500',
  fee_minor: '100',
  description: 'Saque 42',
  pix_qr_code: null,
  pix_txid: null,
  pix_key: 'tesouraria@acme.com.br',
  counterparty: { name: 'Acme Pagamentos Ltda', document: '************81' },
  expires_at: null,
};

import { simulateExpire, simulateOutcome, simulatePay } from '../simulate.ts';

// Sandbox PIX helpers count among the spec's pix routes: a parent funds and settles its sub-accounts too.
const config = {
  auth: 'any',
  subaccount: true,
  record: 'payment',
  sandboxOnly: true,
  errors: ['not_found', 'invalid_state'],
} as const;
const tags = ['sandbox'];
// Paying only touches the database, so it joins its workspace's lane: outside it, its balance locks
// could deadlock with that lane's batches.
const payConfig = { ...config, groupCommit: true } as const;

/** The four payment helpers of API.md: pay, complete, fail, expire (sandbox only; live → 404). */
export default function route(app: App, deps: Deps) {
  pay(app, deps);
  complete(app, deps);
  fail(app, deps);
  expire(app, deps);
}

function pay(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/payments/:id/pay',
    {
      config: payConfig,
      schema: {
        tags,
        summary: 'A buyer pays this PIX charge',
        description:
          'Sandbox only: a payer pays the created PIX charge now. The amount less the cash-in fee is credited to its party and payment.completed is sent. A charge not in created is 422 invalid_state.',
        params: SandboxEnvIdParams,
        response: respond(Payment, { example: PAYMENT_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await simulatePay(contextOf(deps, request), request.params, (fn) => request.write(fn)),
    }),
  );
}

function complete(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/payments/:id/complete',
    {
      config,
      schema: {
        tags,
        summary: 'The PSP settles this payout or refund now',
        description:
          'Sandbox only: the PSP confirms the processing payout or refund now; the held amount leaves the books and payment.completed is sent. Another status is 422 invalid_state.',
        params: SandboxEnvIdParams,
        response: respond(Payment, { example: PAYOUT_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await simulateOutcome(
        contextOf(deps, request),
        { id: request.params.id, outcome: 'completed' },
        (fn) => request.write(fn),
      ),
    }),
  );
}

function fail(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/payments/:id/fail',
    {
      config,
      schema: {
        tags,
        summary: 'The PSP rejects this payout or refund; the money returns to available',
        description:
          'Sandbox only: the PSP rejects the processing payout or refund now, with an optional reason; amount and fee return to available and payment.failed is sent. Another status is 422 invalid_state.',
        params: SandboxEnvIdParams,
        [BODY_OPTIONAL]: true,
        body: Type.Object(
          {
            failure_reason: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 200,
                description: 'Why the PSP rejected it, as its failure_reason.',
              }),
            ),
          },
          { examples: [{ failure_reason: 'Chave PIX inexistente' }] },
        ),
        response: respond(Payment, {
          example: {
            ...PAYOUT_EXAMPLE,
            status: 'failed',
            failure_reason: 'Chave PIX inexistente',
            completed_at: null,
            failed_at: '2026-11-26T03:06:00.000Z',
          },
        }),
      },
    },
    async (request) => ({
      data: await simulateOutcome(
        contextOf(deps, request),
        { id: request.params.id, outcome: 'failed', reason: request.body.failure_reason },
        (fn) => request.write(fn),
      ),
    }),
  );
}

function expire(app: App, deps: Deps) {
  app.post(
    '/v1/:env/simulate/payments/:id/expire',
    {
      config,
      schema: {
        tags,
        summary: 'This PIX charge passes its expires_at now',
        description:
          'Sandbox only: the created PIX charge expires now, unpaid; payment.expired is sent. A charge not in created is 422 invalid_state.',
        params: SandboxEnvIdParams,
        response: respond(Payment, {
          example: {
            ...PAYMENT_EXAMPLE,
            status: 'expired',
            pix_tx_id: null,
            counterparty: null,
            completed_at: null,
          },
        }),
      },
    },
    async (request) => ({
      data: await simulateExpire(contextOf(deps, request), request.params, (fn) => request.write(fn)),
    }),
  );
}
