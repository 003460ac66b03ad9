import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, EnvParams, respond } from '../../../platform/schema.ts';
import { AssignBody, UnassignedListQuery, UnassignedPix } from '../schemas.ts';
import { assignUnassigned, getUnassigned, listUnassigned, returnUnassigned } from '../unassigned.ts';

// PIX received without a charge belong to no party until assigned: workspace callers only. They are
// PIX routes, so a parent may act on its sub-account's.
const config = { auth: 'workspace', subaccount: true } as const;
const record = { ...config, record: 'unassigned_pix' } as const;
const tags = ['pix'];

/** PIX received on the workspace's key without a charge: list, read, assign to a party, return. */
export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/pix/unassigned',
    {
      config,
      schema: {
        tags,
        summary: 'PIX received without a charge of ours, newest first; cursor is the id of the last one seen',
        params: EnvParams,
        querystring: UnassignedListQuery,
        response: respond(Type.Array(UnassignedPix)),
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
        params: EnvIdParams,
        response: respond(UnassignedPix),
      },
    },
    async (request) => ({ data: await getUnassigned(deps.db, contextOf(deps, request), request.params) }),
  );
  app.post(
    '/v1/:env/pix/unassigned/:id/assign',
    {
      config: { ...record, moneyMoving: true },
      schema: {
        tags,
        summary:
          'Credit a PIX received without a charge to a party of the workspace (a completed pix_cash_in)',
        params: EnvIdParams,
        body: AssignBody,
        response: respond(UnassignedPix),
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
        params: EnvIdParams,
        response: respond(UnassignedPix),
      },
    },
    async (request) => ({
      data: await returnUnassigned(contextOf(deps, request), request.params, (fn) => request.write(fn)),
    }),
  );
}
