/** GET /v1/{env}/subscriptions/{id}/cycles: what each cycle of a subscription charged and how it went. */
import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, respond } from '../../../platform/schema.ts';
import { Cycle, type CycleView } from '../schemas.ts';
import { listCycles } from '../service.ts';
import { SUBSCRIPTION_EXAMPLE } from './example.ts';

export type ListCyclesResponse = { data: CycleView[] };

const CYCLE_EXAMPLE: CycleView = {
  subscription_id: SUBSCRIPTION_EXAMPLE.id,
  sequence: 1,
  due_date: '2027-01-10',
  amount_minor: '3500',
  status: 'paid',
  payment_id: '01930000-0000-7000-8000-000000000004',
  attempts: 1,
  next_attempt_date: null,
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
          'Every cycle the cycle task has scheduled so far, by sequence: its due date, amount, status (scheduled, retrying, paid, failed, cancelled, skipped), the attempts made and the day of the next one; the same objects the subscription.cycle_* events carry. A cycle appears once its charge is scheduled (5 days before its due date); the one after it is the subscription’s next_due_date. Unpaged: a subscription has one cycle per period. Errors: 404 not_found (no such subscription in the workspace, or another party’s).',
        params: EnvIdParams,
        response: respond(Type.Array(Cycle), {
          example: [
            CYCLE_EXAMPLE,
            {
              ...CYCLE_EXAMPLE,
              sequence: 2,
              due_date: '2027-02-10',
              status: 'scheduled',
              payment_id: null,
              attempts: 0,
            },
          ],
        }),
      },
    },
    async (request) => ({ data: await listCycles(deps.db, contextOf(deps, request), request.params) }),
  );
}
