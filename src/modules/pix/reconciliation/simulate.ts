/**
 * Sandbox: the sandbox PSP's records are made to differ from the books in one way, then the
 * workspace's last day is reconciled, so the run that finds the discrepancy is the answer.
 */
import type { Tx } from '../../../db/types.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import type { Ctx } from '../../../platform/request-context.ts';
import { endToEndId } from '../../../providers/pix/end-to-end-id.ts';
import { alterSandboxReceived, recordSandboxReceived, SANDBOX_ISPB } from '../../../providers/pix/sandbox.ts';
import { newestSandboxPayment } from './repo.ts';
import { reconcile } from './service.ts';
import { getReconciliationRun } from './store.ts';

export type DiscrepancyKind = 'missing_pix' | 'amount_mismatch' | 'status_mismatch';
type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

interface Target {
  kind: DiscrepancyKind;
  payment_id: string | null;
  end_to_end_id: string | null;
  /** The books' status of the transfer whose PSP status is turned over. */
  books_status?: string;
}

/** Makes the discrepancy (in the write's transaction, but the transfer's PSP status after it), then reconciles. */
export async function simulateDiscrepancy(ctx: Ctx, input: { kind: DiscrepancyKind }, write: Write) {
  if (ctx.caller.environment !== 'sandbox') throw notFound('Route');
  const target = await write((tx) => makeDiscrepancy(tx, ctx, input));
  if (target.kind === 'status_mismatch')
    await ctx.deps.providers.sandbox.pix.overturn(
      target.payment_id!,
      target.books_status === 'completed' ? 'failed' : 'completed',
    );
  const now = ctx.deps.clock.now();
  const report = await reconcile(ctx.deps, {
    environment: 'sandbox',
    from: new Date(now.getTime() - 24 * 3600_000),
    to: new Date(now.getTime() + 1),
    trigger: 'on_demand',
    workspaceId: ctx.caller.workspaceId,
  });
  const { books_status: _, ...discrepancy } = target;
  return { ...discrepancy, run: await getReconciliationRun(ctx.deps.db, ctx, { id: report.runId }) };
}

async function makeDiscrepancy(tx: Tx, ctx: Ctx, input: { kind: DiscrepancyKind }): Promise<Target> {
  const workspaceId = ctx.caller.workspaceId;
  if (input.kind === 'missing_pix') {
    const at = ctx.deps.clock.now();
    const e2e = endToEndId(SANDBOX_ISPB, at);
    await recordSandboxReceived(tx, { workspaceId, endToEndId: e2e, txid: null, amountMinor: 1000n, at });
    return { kind: input.kind, payment_id: null, end_to_end_id: e2e };
  }
  const transfer = input.kind === 'status_mismatch';
  const payment = await newestSandboxPayment(
    tx,
    workspaceId,
    transfer ? ['pix_cash_out', 'pix_refund'] : ['pix_cash_in'],
    transfer ? ['completed', 'failed'] : ['completed', 'refunded'],
  );
  if (!payment)
    throw new AppError(
      'invalid_state',
      transfer
        ? 'status_mismatch needs a settled PIX payout or refund of this workspace (the newest is used).'
        : 'amount_mismatch needs a PIX charge of this workspace paid in sandbox (the newest is used).',
    );
  if (transfer)
    return { kind: input.kind, payment_id: payment.id, end_to_end_id: null, books_status: payment.status };
  if (!(await alterSandboxReceived(tx, workspaceId, payment.pix_tx_id!, payment.amount_minor + 1n)))
    throw new AppError('invalid_state', 'The sandbox PSP has no record of the newest paid charge.');
  return { kind: input.kind, payment_id: payment.id, end_to_end_id: payment.pix_tx_id };
}
