import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, EnvParams, respond } from '../../../platform/schema.ts';
import { AssignBody, UNASSIGNED_PIX_EXAMPLE, UnassignedListQuery, UnassignedPix } from '../schemas.ts';
import { assignUnassigned, getUnassigned, listUnassigned, returnUnassigned } from '../unassigned.ts';

// PIX received without a charge belong to no party until assigned: workspace callers only. They are
// PIX routes, so a parent may act on its sub-account's.
const config = { auth: 'workspace', subaccount: true, errors: [] } as const;
const record = {
  ...config,
  record: 'unassigned_pix',
  errors: ['not_found', 'invalid_state', 'invalid_amount', 'provider_unavailable'],
} as const;
const tags = ['pix'];

/** PIX received on the workspace's key without a charge: list, read, assign to a party, return. */
export default function route(app: App, deps: Deps) {
  readRoutes(app, deps);
  resolveRoutes(app, deps);
}

/** The list and one held PIX. */
function readRoutes(app: App, deps: Deps) {
  app.get(
    '/v1/:env/pix/unassigned',
    {
      config,
      schema: {
        tags,
        summary: 'PIX received without a charge of ours, newest first; cursor is the id of the last one seen',
        description:
          "PIX that arrived on the workspace's key without the txid of a charge, held until an operator assigns each to a party or returns it. Filtered by status; page with limit and cursor.",
        params: EnvParams,
        querystring: UnassignedListQuery,
        response: respond(Type.Array(UnassignedPix), { example: [UNASSIGNED_PIX_EXAMPLE] }),
      },
    },
    async (request) => ({ data: await listUnassigned(deps.db, contextOf(deps, request), request.query) }),
  );
  app.get(
    '/v1/:env/pix/unassigned/:id',
    {
      config: record,
      schema: {
        tags,
        summary: 'One PIX received without a charge',
        description:
          'One PIX received without a charge, by its id: unassigned, assigned (with payment_id) or returned (with refund_id).',
        params: EnvIdParams,
        response: respond(UnassignedPix, { example: UNASSIGNED_PIX_EXAMPLE }),
      },
    },
    async (request) => ({ data: await getUnassigned(deps.db, contextOf(deps, request), request.params) }),
  );
}

/** Assigning a held PIX to a party, or returning it to its payer. */
function resolveRoutes(app: App, deps: Deps) {
  app.post(
    '/v1/:env/pix/unassigned/:id/assign',
    {
      config: { ...record, moneyMoving: true },
      schema: {
        tags,
        summary:
          'Credit a PIX received without a charge to a party of the workspace (a completed pix_cash_in)',
        description:
          "Credits a held PIX to a party of the workspace (the workspace's own when party_id is left out) as a completed pix_cash_in, after checking it with the PSP. An already resolved one is 422 invalid_state.",
        params: EnvIdParams,
        body: AssignBody,
        response: respond(UnassignedPix, {
          example: {
            ...UNASSIGNED_PIX_EXAMPLE,
            status: 'assigned',
            payment_id: '0194f4d0-49bf-7ac1-8d3e-4f5a6b7c8d9e',
            resolved_at: '2026-11-26T03:20:00.000Z',
          },
        }),
      },
    },
    // The PSP is asked before the write's transaction, so no lock waits on it.
    async (request) => ({
      data: await assignUnassigned(
        contextOf(deps, request),
        { id: request.params.id, ...request.body },
        (fn) => request.write(fn),
      ),
    }),
  );
  app.post(
    '/v1/:env/pix/unassigned/:id/return',
    {
      config: { ...record, moneyMoving: true },
      schema: {
        tags,
        summary: 'Return a PIX received without a charge to its payer, whole (a devolução through the PSP)',
        description:
          'Sends a held PIX back to its payer, whole, through the PSP (a pix_refund, in refund_id). An already resolved one is 422 invalid_state.',
        params: EnvIdParams,
        response: respond(UnassignedPix, {
          example: {
            ...UNASSIGNED_PIX_EXAMPLE,
            status: 'returned',
            refund_id: '0194f4d0-49bf-7ac1-8d3e-4f5a6b7c8d9f',
            resolved_at: '2026-11-26T03:20:00.000Z',
          },
        }),
      },
    },
    async (request) => ({
      data: await returnUnassigned(contextOf(deps, request), request.params, (fn) => request.write(fn)),
    }),
  );
}
