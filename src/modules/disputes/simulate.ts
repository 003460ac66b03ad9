/** Sandbox helpers of disputes: the payer's bank opens an infraction, the PSP decides it. */
import type { Tx } from '../../db/types.ts';
import { parseAmount } from '../../ledger/currency.ts';
import { notFound } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { randomBase62 } from '../../platform/secrets.ts';
import { disputeNow } from './clock.ts';
import { closeDispute } from './close.ts';
import { openDispute } from './open.ts';
import type { CloseOutcome, DisputeView } from './schemas.ts';
import { disputeView } from './view.ts';

function sandboxScope(ctx: Ctx) {
  const { caller } = ctx;
  if (caller.environment !== 'sandbox') throw notFound('Route');
  return { workspaceId: caller.workspaceId, environment: caller.environment, partyId: caller.partyId };
}

export async function simulateOpenDispute(
  tx: Tx,
  ctx: Ctx,
  input: { id: string; amount_minor?: string; reason?: string; deadline_at?: string },
): Promise<DisputeView> {
  const scope = sandboxScope(ctx);
  const { row } = await openDispute(tx, ctx.deps, scope, {
    paymentId: input.id,
    infractionId: `sbx_inf_${randomBase62(16)}`,
    reason: input.reason ?? 'golpe',
    amountMinor: input.amount_minor === undefined ? undefined : parseAmount(input.amount_minor),
    openedAt: await disputeNow(ctx.deps, scope, tx),
    deadlineAt: input.deadline_at === undefined ? undefined : new Date(input.deadline_at),
  });
  return disputeView(row);
}

export async function simulateCloseDispute(
  tx: Tx,
  ctx: Ctx,
  input: { id: string; outcome: CloseOutcome },
): Promise<DisputeView> {
  const scope = sandboxScope(ctx);
  const { row } = await closeDispute(tx, ctx.deps, scope, {
    disputeId: input.id,
    outcome: input.outcome,
    at: ctx.deps.clock.now(),
  });
  return disputeView(row);
}
