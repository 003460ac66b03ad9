import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { BODY_OPTIONAL } from '../../../platform/openapi.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, respond, SandboxEnvIdParams } from '../../../platform/schema.ts';
import { Payment } from '../../payments/schemas.ts';
import { simulateExpire, simulateOutcome, simulatePay } from '../simulate.ts';

// Sandbox PIX helpers count among the spec's pix routes: a parent funds and settles its sub-accounts too.
const config = { auth: 'any', subaccount: true, record: 'payment', sandboxOnly: true } as const;
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
        params: SandboxEnvIdParams,
        response: respond(Payment),
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
        params: SandboxEnvIdParams,
        response: respond(Payment),
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
        params: SandboxEnvIdParams,
        [BODY_OPTIONAL]: true,
        body: Type.Object({ failure_reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
        response: respond(Payment),
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
        params: SandboxEnvIdParams,
        response: respond(Payment),
      },
    },
    async (request) => ({
      data: await simulateExpire(contextOf(deps, request), request.params, (fn) => request.write(fn)),
    }),
  );
}
