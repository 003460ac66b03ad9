/**
 * PIX received without a charge of ours (a static key, a copied key): never dropped, never credited
 * on a guess. Each is held for the workspace that owns the key it reached (live: the platform's key,
 * owned by PIX_UNASSIGNED_WORKSPACE_ID; sandbox: the simulator's caller) until that workspace assigns
 * it to one of its parties (a completed pix_cash_in, credited) or returns it to the payer (a refund,
 * devolução natureza ORIGINAL, through the usual refund path). docs/going-live.md says why.
 */
import type { Queryable, Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { formatAmount, parseAmount } from '../../ledger/currency.ts';
import { type PostingInput, postJournal } from '../../ledger/ledger.ts';
import type { Caller, Environment } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { endToEndId } from '../../providers/pix/end-to-end-id.ts';
import { recordSandboxReceived, SANDBOX_ISPB } from '../../providers/pix/sandbox.ts';
import { defaultParty, owningParty } from '../parties/service.ts';
import { createPayment } from '../payments/service.ts';
import { feeFor } from './fees.ts';
import { recoverPartyDebt } from './med-returns.ts';
import { pixTransfers } from './transfers.ts';
import { applyHeldReturns, heldNow, pspViewOf } from './unassigned-med.ts';
import {
  findUnassigned,
  heldReturnedByRow,
  insertUnassigned,
  listUnassignedRows,
  resolveUnassigned,
  type UnassignedRow,
} from './unassigned-repo.ts';

type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/** A held PIX as the API shows it: its amount is what is held, the PSP's MED returns taken off. */
export function unassignedView(row: UnassignedRow, returnedMinor = 0n) {
  return {
    id: row.id,
    environment: row.environment,
    status: row.status,
    amount_minor: formatAmount(row.amount_minor - returnedMinor),
    currency: 'BRL' as const,
    end_to_end_id: row.end_to_end_id,
    payer_info: row.payer_info,
    payment_id: row.payment_id,
    refund_id: row.refund_id,
    received_at: iso(row.received_at),
    resolved_at: iso(row.resolved_at),
  };
}

/** Holds a PIX received without a charge for a workspace: its id, or undefined when held already. */
export async function recordUnassigned(
  q: Queryable,
  input: {
    workspaceId: string;
    environment: Environment;
    endToEndId: string;
    amountMinor: bigint;
    payerInfo: string | null;
    at: Date;
  },
): Promise<string | undefined> {
  const id = newId();
  const inserted = await insertUnassigned(q, {
    workspace_id: input.workspaceId,
    id,
    environment: input.environment,
    end_to_end_id: input.endToEndId,
    amount_minor: input.amountMinor,
    payer_info: input.payerInfo?.slice(0, 140) ?? null,
    received_at: input.at,
  });
  return inserted ? id : undefined;
}

export async function listUnassigned(
  q: Queryable,
  ctx: Ctx,
  query: { limit?: number; cursor?: string; status?: string },
) {
  const rows = await listUnassignedRows(q, ctx.caller, {
    status: query.status ?? null,
    cursor: query.cursor,
    limit: query.limit,
  });
  const returned = await heldReturnedByRow(
    q,
    ctx.caller.workspaceId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => unassignedView(row, returned.get(row.id)));
}

export async function getUnassigned(q: Queryable, ctx: Ctx, input: { id: string }) {
  const row = await findUnassigned(q, ctx.caller, input.id);
  if (!row) throw notFound('Unassigned PIX');
  return unassignedView(row, (await heldReturnedByRow(q, row.workspace_id, [row.id])).get(row.id));
}

/** What the PSP shows of a held PIX, asked before any transaction (none in sandbox). */
async function askPsp(ctx: Ctx, id: string) {
  const row = await findUnassigned(ctx.deps.db, ctx.caller, id);
  if (!row) throw notFound('Unassigned PIX');
  return pspViewOf(ctx.deps, row);
}

async function lockWaiting(tx: Tx, caller: Caller, id: string): Promise<UnassignedRow> {
  const row = await findUnassigned(tx, caller, id, { forUpdate: true });
  if (!row) throw notFound('Unassigned PIX');
  if (row.status !== 'unassigned')
    throw new AppError(
      'invalid_state',
      `This PIX is ${row.status} already; it can be assigned or returned once.`,
    );
  return row;
}

/** The completed cash-in a held PIX becomes: PIX settlement → the party's available (less the fee). */
async function cashInOf(
  tx: Tx,
  ctx: Ctx,
  row: UnassignedRow,
  cashIn: { partyId: string; fee: bigint; forReturn: boolean },
) {
  const { partyId, fee } = cashIn;
  const at = ctx.deps.clock.now();
  const id = newId();
  const postings: PostingInput[] = [
    {
      account: systemAccount.pixSettlement(row.workspace_id, row.environment),
      direction: 'debit',
      amount: row.amount_minor,
    },
    {
      account: partyAccount(row.workspace_id, row.environment, partyId, 'BRL'),
      direction: 'credit',
      amount: row.amount_minor - fee,
    },
  ];
  if (fee > 0n)
    postings.push({
      account: systemAccount.feeRevenue(row.workspace_id, row.environment, 'BRL'),
      direction: 'credit',
      amount: fee,
    });
  await postJournal(tx, {
    workspaceId: row.workspace_id,
    environment: row.environment,
    referenceType: 'payment',
    referenceId: id,
    at,
    postings,
  });
  return createPayment(
    tx,
    {
      id,
      workspace_id: row.workspace_id,
      environment: row.environment,
      party_id: partyId,
      kind: 'pix_cash_in',
      status: 'completed',
      amount_minor: row.amount_minor,
      currency: 'BRL',
      fee_minor: fee,
      description: 'PIX received without a charge',
      pix_tx_id: row.end_to_end_id,
      counterparty: row.payer_info ? { name: row.payer_info } : null,
      // held_return: the cash-in a return is made of, the return's own: never refundable by its party.
      metadata: cashIn.forReturn
        ? { unassigned_pix_id: row.id, held_return: true }
        : { unassigned_pix_id: row.id },
      idempotency_key: ctx.idempotencyKey ?? null,
    },
    { at },
  );
}

/**
 * Assigns a held PIX to a party of the workspace: a completed cash-in of all the PSP received, the
 * workspace's cash-in fee taken as from a charge (none when it would take all that is left), the MED
 * returns the PSP made while it was held applied to it, and what the party owes paid from it first.
 */
export async function assignUnassigned(ctx: Ctx, input: { id: string; party_id?: string }, write: Write) {
  const { caller, deps } = ctx;
  const pix = await askPsp(ctx, input.id);
  return write(async (tx) => {
    const { row, left, returns } = await heldNow(tx, deps, await lockWaiting(tx, caller, input.id), pix);
    const partyId = await owningParty(tx, caller, input.party_id);
    const fee = await feeFor(tx, row.workspace_id, row.environment, 'pix_cash_in', row.amount_minor);
    const payment = await cashInOf(tx, ctx, row, { partyId, fee: fee < left ? fee : 0n, forReturn: false });
    await applyHeldReturns(tx, deps, row, returns, payment.id);
    await recoverPartyDebt(tx, deps, {
      workspaceId: row.workspace_id,
      environment: row.environment,
      partyId,
    });
    const at = deps.clock.now();
    await resolveUnassigned(tx, row, { status: 'assigned', paymentId: payment.id, refundId: null, at });
    const resolved = { ...row, status: 'assigned' as const, payment_id: payment.id, resolved_at: at };
    return unassignedView(resolved, row.amount_minor - left);
  });
}

/**
 * Returns a held PIX to its payer, all that is left of it: it becomes a cash-in of the workspace's
 * default party (its MED returns applied to it) and, in the same transaction, a refund of what is
 * left (devolução natureza ORIGINAL), marked held_return, which the outbound flow's job sends after
 * the commit and settles like any refund. The party's balance is back where it was at once; what it
 * owes of MED returns is not paid from money that is leaving.
 */
export async function returnUnassigned(ctx: Ctx, input: { id: string }, write: Write) {
  const { caller, deps } = ctx;
  const pix = await askPsp(ctx, input.id);
  return write(async (tx) => {
    const { row, left, returns } = await heldNow(tx, deps, await lockWaiting(tx, caller, input.id), pix);
    const partyId = await defaultParty(tx, caller);
    const cashIn = await cashInOf(tx, ctx, row, { partyId, fee: 0n, forReturn: true });
    await applyHeldReturns(tx, deps, row, returns, cashIn.id);
    const at = deps.clock.now();
    const refund = await pixTransfers.start(
      tx,
      deps,
      {
        id: newId(),
        workspace_id: row.workspace_id,
        environment: row.environment,
        party_id: partyId,
        kind: 'pix_refund',
        amount_minor: left,
        currency: 'BRL',
        related_payment_id: cashIn.id,
        description: 'Return of a PIX received without a charge',
        counterparty: cashIn.counterparty,
        metadata: { unassigned_pix_id: row.id, held_return: true },
      },
      at,
    );
    const to = { status: 'returned' as const, paymentId: cashIn.id, refundId: refund.id, at };
    await resolveUnassigned(tx, row, to);
    const resolved = {
      ...row,
      status: to.status,
      payment_id: cashIn.id,
      refund_id: refund.id,
      resolved_at: at,
    };
    return unassignedView(resolved, row.amount_minor - left);
  });
}

/** Sandbox: a payer sends a PIX to the workspace's sandbox key with no txid; it is held, unassigned. */
export async function simulateUnassigned(
  tx: Tx,
  ctx: Ctx,
  input: { amount_minor: string; payer_info?: string },
) {
  const { caller, deps } = ctx;
  if (caller.environment !== 'sandbox') throw notFound('Route');
  const amount = parseAmount(input.amount_minor);
  if (amount <= 0n)
    throw new AppError('invalid_amount', 'A PIX received is more than 0.', [
      { field: 'body.amount_minor', issue: 'must be more than 0' },
    ]);
  const at = deps.clock.now();
  const e2e = endToEndId(SANDBOX_ISPB, at);
  await recordSandboxReceived(tx, {
    workspaceId: caller.workspaceId,
    endToEndId: e2e,
    txid: null,
    amountMinor: amount,
    at,
  });
  const id = await recordUnassigned(tx, {
    workspaceId: caller.workspaceId,
    environment: 'sandbox',
    endToEndId: e2e,
    amountMinor: amount,
    payerInfo: input.payer_info ?? null,
    at,
  });
  return unassignedView((await findUnassigned(tx, caller, id!))!);
}
