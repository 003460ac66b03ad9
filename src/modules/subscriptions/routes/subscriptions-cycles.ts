/** GET /v1/{env}/subscriptions/{id}/cycles: what each cycle of a subscription charged and how it went. */
import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { CYCLE_EXAMPLE, Cycle, type CycleView } from '../schemas.ts';
import { listCycles } from '../service.ts';

export type ListCyclesResponse = { data: CycleView[] };

const PAID_AFTER_RETRY: CycleView = {
  ...CYCLE_EXAMPLE,
  status: 'paid',
  attempts: 2,
  next_attempt_date: null,
  attempt_history: [
    ...CYCLE_EXAMPLE.attempt_history,
    { date: '2027-01-12', outcome: 'paid', rejection_code: null, rejection_reason: null },
  ],
};

export default function route(app: App, deps: Deps) {
  app.get(
    '/v1/:env/subscriptions/:id/cycles',
    {
      config: { auth: 'any', record: 'subscription', errors: ['not_found'] },
      schema: {
        tags: ['subscriptions'],
        summary: 'The cycles of a Pix Automático subscription, first to last',
        description:
          'Every cycle the cycle task has scheduled so far, by sequence: its due date, amount, status (scheduled, retrying, paid, failed, cancelled, skipped), the attempts made and the day of the next one, and each attempt that ended (attempt_history) with, for a failed one, the PSP’s rejection code and reason (API Pix tentativas[].rejeicao; last_failure is the latest); the same objects the subscription.cycle_* events carry. A cycle appears once its charge is scheduled (5 days before its due date); the one after it is the subscription’s next_due_date. Unpaged: a subscription has one cycle per period. Errors: 404 not_found (no such subscription in the workspace, or another party’s).',
        params: EnvIdParams,
        response: respond(Type.Array(Cycle), {
          example: [
            PAID_AFTER_RETRY,
            {
              ...CYCLE_EXAMPLE,
              sequence: 2,
              due_date: '2027-02-10',
              amount_minor: '3500',
              status: 'scheduled',
              attempts: 0,
              next_attempt_date: '2027-02-10',
              attempt_history: [],
              last_failure: null,
            },
          ],
        }),
      },
    },
    async (request) => ({ data: await listCycles(deps.db, contextOf(deps, request), request.params) }),
  );
}
