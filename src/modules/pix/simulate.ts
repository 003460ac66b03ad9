/** Sandbox test helpers of the PIX rail: they act as the PSP or the buyer would, through the same code paths. */
import { pipelined, type Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { parseAmount } from '../../ledger/currency.ts';
import { postJournal } from '../../ledger/ledger.ts';
import type { Caller } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { randomBase62 } from '../../platform/secrets.ts';
import { endToEndId } from '../../providers/pix/end-to-end-id.ts';
import { SANDBOX_ISPB } from '../../providers/pix/sandbox.ts';
import { owningParty } from '../parties/service.ts';
import {
  createPayment,
  findPayment,
  getPayment,
  lockPayment,
  paymentView,
  transition,
} from '../payments/service.ts';
import { payCharge } from './charge-payment.ts';
import { amountDueOn, todayFor } from './due-charges.ts';
import { recordDueChargePaid } from './due-paid-repo.ts';
import { applyMedReturn, type MedNatureza, recoverPartyDebt } from './med-returns.ts';
import { returnedOfCharge } from './repo.ts';
import { pixTransfers } from './transfers.ts';

/** Sandbox helpers exist only in sandbox: on a live path they are not there at all. */
function requireSandbox(caller: Caller): void {
  if (caller.environment !== 'sandbox') throw notFound('Route');
}

function sandboxScope(caller: Caller) {
  requireSandbox(caller);
  return { workspaceId: caller.workspaceId, environment: caller.environment, partyId: caller.partyId };
}

/** Runs one transaction: the route's request.write, so an Idempotency-Key is honoured. */
type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/** A due-date charge is paid what it asks on the sandbox clock's day; any other charge its amount. */
export async function simulatePay(ctx: Ctx, input: { id: string }, write: Write) {
  const scope = sandboxScope(ctx.caller);
  return write(async (tx) => {
    // The charge is locked before its terms are read, as a revision locks it before changing them: a
    // revision committed while this waited is the one paid, never the terms it replaced.
    await lockPayment(tx, scope, input.id);
    const day = await todayFor(tx, ctx.deps, ctx.caller);
    const due = await amountDueOn(tx, scope, input.id, day);
    const paid = await payCharge(tx, ctx.deps, scope, input.id, undefined, { amountMinor: due });
    if (due !== undefined) await recordDueChargePaid(tx, scope, input.id, { day, amountMinor: due });
    return paid;
  });
}

/** Settles a payout or refund now, as the PSP would report it; a charge is paid (complete) or failed. */
export async function simulateOutcome(
  ctx: Ctx,
  input: { id: string; outcome: 'completed' | 'failed'; reason?: string },
  write: Write,
) {
  const { deps, caller } = ctx;
  const { id, outcome, reason } = input;
  const scope = sandboxScope(caller);
  const row = await findPayment(deps.db, scope, id);
  if (!row) throw notFound('Payment');
  if (row.kind === 'pix_cash_in') {
    if (outcome === 'completed') return simulatePay(ctx, { id }, write);
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
  // Asked for the outcome it already has (a retry whose answer was lost, a duplicate): that is the answer.
  if (row.status === outcome) return paymentView(row);
  if (row.status !== 'created' && row.status !== 'processing') {
    throw new AppError('invalid_state', `A ${row.status} payment cannot be settled again.`);
  }
  const job = { paymentId: id, workspaceId: scope.workspaceId, environment: scope.environment };
  // The PSP learns of the transfer (if the worker has not sent it yet) without settling it, so its own
  // rules (settling at once when SANDBOX_SETTLE_MS is 0, amounts ending in 13) cannot overtake the
  // outcome asked for; then the payment records that outcome through the usual path.
  await deps.providers.sandbox.pix.register(
    id,
    row.kind === 'pix_refund' ? 'refund' : 'payout',
    row.amount_minor,
    row.kind === 'pix_refund' ? null : row.pix_key,
  );
  await deps.providers.sandbox.pix.forceOutcome(id, outcome, reason);
  if (row.status === 'created') await pixTransfers.send(deps, job);
  else await pixTransfers.poll(deps, job);
  const settled = await getPayment(deps.db, ctx, { id });
  // The PSP had settled it the other way before the outcome could be forced (its own rule, read by
  // the worker's poll meanwhile): that outcome stands, and asking for this one is refused, as it
  // would be on any later ask, rather than answered 200 with a payment that did the opposite.
  const final = settled.status === 'completed' || settled.status === 'failed';
  if (final && settled.status !== outcome) {
    throw new AppError('invalid_state', `A ${settled.status} payment cannot be settled again.`);
  }
  return settled;
}

export async function simulateExpire(ctx: Ctx, input: { id: string }, write: Write) {
  const { deps, caller } = ctx;
  const { id } = input;
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

/**
 * A PIX payment received from outside, settled at once: a completed pix_cash_in payment and its journal
 * (PIX settlement → the party's available BRL), with payment.completed, in the caller's transaction.
 */
export async function simulateCashIn(
  tx: Tx,
  ctx: Ctx,
  input: { amount_minor: string; party_id?: string; payer?: { name?: string; document?: string } },
) {
  const { caller } = ctx;
  const at = ctx.deps.clock.now();
  requireSandbox(caller);
  // No cap below the wire's 16 digits: the settlement account debited is this workspace's own, so a
  // big amount reaches no other tenant's books, and a balance pushed past BIGINT answers 400.
  const amount = parseAmount(input.amount_minor);
  const partyId = await owningParty(tx, caller, input.party_id);
  const id = newId();
  const credited = postJournal(tx, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    referenceType: 'payment',
    referenceId: id,
    at,
    postings: [
      {
        account: systemAccount.pixSettlement(caller.workspaceId, caller.environment),
        direction: 'debit',
        amount,
      },
      {
        account: partyAccount(caller.workspaceId, caller.environment, partyId, 'BRL'),
        direction: 'credit',
        amount,
      },
    ],
  });
  // The party's debts are asked for right behind the credit, on the same connection.
  await pipelined(
    credited,
    recoverPartyDebt(
      tx,
      ctx.deps,
      { workspaceId: caller.workspaceId, environment: caller.environment, partyId },
      { justCredited: credited },
    ),
  );
  return createPayment(
    tx,
    {
      id,
      workspace_id: caller.workspaceId,
      environment: caller.environment,
      party_id: partyId,
      kind: 'pix_cash_in',
      status: 'completed',
      amount_minor: amount,
      currency: 'BRL',
      description: 'Simulated PIX cash-in',
      idempotency_key: ctx.idempotencyKey ?? null,
      counterparty: input.payer
        ? { name: input.payer.name ?? null, document: input.payer.document ?? null }
        : null,
    },
    { at },
  );
}

/**
 * The sandbox PSP returns (part of) a paid charge under MED, with an id of its own, through the
 * path a live PSP's return takes. Without an amount, all that is left of the charge is returned.
 */
export async function simulateMedReturn(
  tx: Tx,
  ctx: Ctx,
  input: { id: string; amount_minor?: string; natureza?: MedNatureza },
) {
  const scope = sandboxScope(ctx.caller);
  const charge = await lockPayment(tx, scope, input.id);
  const left =
    charge.amount_minor - (await returnedOfCharge(tx, charge.workspace_id, charge.id, ['completed']));
  const at = ctx.deps.clock.now();
  const payment = await applyMedReturn(tx, ctx.deps, scope, input.id, {
    returnId: `MED${randomBase62(20)}`,
    rtrId: endToEndId(SANDBOX_ISPB, at).replace(/^E/, 'D'),
    amountMinor: input.amount_minor === undefined ? left : parseAmount(input.amount_minor),
    natureza: input.natureza ?? 'MED_FRAUDE',
  });
  return payment!;
}
