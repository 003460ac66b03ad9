import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, EnvParams, respond } from '../../../platform/schema.ts';
import {
  ReconciliationRun,
  ReconciliationRunDetail,
  RUN_DETAIL_EXAMPLE,
  RUN_EXAMPLE,
  RunListQuery,
} from '../reconciliation/schemas.ts';
import { getReconciliationRun, listReconciliationRuns } from '../reconciliation/store.ts';

// The books of the whole workspace set beside the PSP's: workspace callers only, not a party's key.
const config = { auth: 'workspace', errors: ['not_found'] } as const;
const tags = ['reconciliation'];

/** Reconciliation runs of the workspace's PIX books against the PSP, and each run's findings. */
export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/reconciliation/runs',
    {
      config,
      schema: {
        tags,
        summary: 'Reconciliation runs of the PIX books against the PSP, newest first',
        description:
          "Each run compares a window (the previous day, daily, in America/Sao_Paulo) of the workspace's PIX books with the PSP's records; cursor is the id of the last run seen.",
        params: EnvParams,
        querystring: RunListQuery,
        response: respond(Type.Array(ReconciliationRun), { example: [RUN_EXAMPLE] }),
      },
    },
    async (request) => ({
      data: await listReconciliationRuns(deps.db, contextOf(deps, request), request.query),
    }),
  );
  app.get(
    '/v1/:env/reconciliation/runs/:id',
    {
      config,
      schema: {
        tags,
        summary: "One reconciliation run with its findings about the workspace's payments",
        description:
          "One run by its id, with each finding about the workspace's payments: what the books say, what the PSP says, and the payment or end-to-end id concerned.",
        params: EnvIdParams,
        response: respond(ReconciliationRunDetail, { example: RUN_DETAIL_EXAMPLE }),
      },
    },
    async (request) => ({
      data: await getReconciliationRun(deps.db, contextOf(deps, request), request.params),
    }),
  );
}
