import { type Static, Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvParams, respond } from '../../../platform/schema.ts';
import { DISPUTE_EXAMPLE, Dispute, DisputeListQuery } from '../schemas.ts';
import { listDisputes } from '../service.ts';

export type DisputeListRequest = Static<typeof DisputeListQuery>;
export const DisputeListResponse = respond(Type.Array(Dispute), { example: [DISPUTE_EXAMPLE] });
export type DisputeListData = Static<(typeof DisputeListResponse)[200]>;

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/disputes',
    {
      config: { errors: [], auth: 'any' },
      schema: {
        tags: ['disputes'],
        summary: 'Disputes (MED infractions) of this environment, newest first',
        description:
          'The disputes opened on PIX cash-ins of the workspace (a party-scoped key: of its party), newest first; cursor is the id of the last dispute seen. Filter by status, party_id or payment_id.',
        params: EnvParams,
        querystring: DisputeListQuery,
        response: DisputeListResponse,
      },
    },
    async (request) => ({ data: await listDisputes(deps.db, contextOf(deps, request), request.query) }),
  );
}
