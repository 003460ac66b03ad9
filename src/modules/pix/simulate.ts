import type { Tx } from '../../db/types.ts';
import type { Caller, Deps } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { findPaymentRow } from '../payments/repo.ts';
import { getPayment, lockPayment, transition } from '../payments/service.ts';
import { payCharge, pollProvider, sendToProvider } from './lifecycle.ts';

/** Sandbox test helpers: they act as the PSP or the buyer would, through the same code paths. */

function sandboxScope(caller: Caller) {
  if (caller.environment !== 'sandbox') throw notFound('Route');
  return { workspaceId: caller.workspaceId, environment: caller.environment, partyId: caller.partyId };
}

/** Runs one transaction: the route's request.write, so an Idempotency-Key is honoured. */
type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

export async function simulatePay(deps: Deps, caller: Caller, id: string, write: Write) {
  const scope = sandboxScope(caller);
  return write((tx) => payCharge(tx, deps, scope, id));
}

/** Settles a payout or refund now, as the PSP would report it; a charge is paid (complete) or failed. */
export async function simulateOutcome(
  deps: Deps,
  caller: Caller,
  id: string,
  outcome: 'completed' | 'failed',
  write: Write,
  reason?: string,
) {
  const scope = sandboxScope(caller);
  const row = await findPaymentRow(deps.db, scope, id);
  if (!row) throw notFound('Payment');
  if (row.kind === 'pix_cash_in') {
    if (outcome === 'completed') return simulatePay(deps, caller, id, write);
    return write((tx) =>
      transition(
        tx,
        scope,
        id,
        'failed',
        { failure_reason: reason ?? 'sandbox_failed' },
        { at: deps.clock.now() },
      ),
    );
  }
  if (row.kind !== 'pix_cash_out' && row.kind !== 'pix_refund') {
    throw new AppError('invalid_state', 'This helper settles PIX payments only.');
  }
  if (row.status !== 'created' && row.status !== 'processing') {
    throw new AppError('invalid_state', `A ${row.status} payment cannot be settled again.`);
  }
  const job = { paymentId: id, workspaceId: scope.workspaceId, environment: scope.environment };
  // The PSP learns of the transfer (if the worker has not sent it yet) without settling it, so its own
  // rules (settling at once when SANDBOX_SETTLE_MS is 0, amounts ending in 13) cannot overtake the
  // outcome asked for; then the payment records that outcome through the usual path.
  await deps.providers.sandboxPix.register(
    id,
    row.kind === 'pix_refund' ? 'refund' : 'payout',
    row.amount_minor,
    row.kind === 'pix_refund' ? null : row.pix_key,
  );
  await deps.providers.sandboxPix.forceOutcome(id, outcome, reason);
  if (row.status === 'created') await sendToProvider(deps, job);
  else await pollProvider(deps, job);
  return getPayment(deps.db, caller, id);
}

export async function simulateExpire(deps: Deps, caller: Caller, id: string, write: Write) {
  const scope = sandboxScope(caller);
  return write(async (tx) => {
    const row = await lockPayment(tx, scope, id);
    if (row.kind !== 'pix_cash_in' || row.status !== 'created') {
      throw new AppError('invalid_state', 'Only an unpaid PIX charge can expire.');
    }
    const at = deps.clock.now();
    return transition(tx, scope, id, 'expired', { expires_at: at }, { at });
  });
}
