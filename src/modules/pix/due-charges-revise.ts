/**
 * Revising and cancelling a PIX charge with a due date: the BCB API Pix's PATCH /cobv/{txid}
 * (github.com/bacen/pix-api, openapi.yaml v2.9.0, CobVRevisada; CobVOperacaoInvalida lists what the
 * PSP refuses: any change to a cobv that is not ATIVA, and a removal, status
 * REMOVIDA_PELO_USUARIO_RECEBEDOR, sent with other changes). Only a waiting, unpaid charge within its
 * last payable day changes. In live the PSP is asked first, outside any transaction: a PSP that is
 * away is 503 and nothing changes here; once it agreed, the books follow in one transaction with
 * their events. The sandbox's BR Code carries no amount, so it stays payable for the revised amount.
 */
import type { Queryable, Tx } from '../../db/types.ts';
import { AppError, invalidRequest, notFound } from '../../platform/errors.ts';
import { replayStoredAnswer } from '../../platform/idempotency.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { Ctx } from '../../platform/request-context.ts';
import type { DueChargeRevision } from '../../providers/pix/due-charge-api.ts';
import {
  findPayment,
  lockPayment,
  type PaymentRow,
  reviseWaitingCharge,
  transition,
} from '../payments/service.ts';
import { cashInFee } from './charges.ts';
import { lastPayableDate } from './due-amount.ts';
import { endOfValidity, getDueCharge, todayFor } from './due-charges.ts';
import {
  cancelDueChargeRow,
  type DueChargeRow,
  findDueCharge,
  reviseDueChargeRow,
} from './due-charges-repo.ts';
import type { DueChargePatchRequest, DueChargeResponse } from './due-schemas.ts';
import { type DueChargeInput, validateDueCharge } from './due-terms.ts';

type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
const TERMS = ['fine', 'interest', 'rebate', 'discount'] as const;

const scopeOf = (ctx: Ctx) => ({
  workspaceId: ctx.caller.workspaceId,
  environment: ctx.caller.environment,
  partyId: ctx.caller.partyId,
});

/** 422 invalid_state unless the charge still waits to be paid. */
function assertWaiting(payment: PaymentRow, row: DueChargeRow): void {
  if (row.cancelled_at) throw new AppError('invalid_state', 'The charge was cancelled: it cannot change.');
  if (payment.status !== 'created')
    throw new AppError('invalid_state', `A ${payment.status} charge cannot change: only a waiting one can.`);
}

/** 422 invalid_state unless the charge still waits to be paid and can still be paid. */
function assertRevisable(payment: PaymentRow, row: DueChargeRow, today: string): void {
  assertWaiting(payment, row);
  if (today > lastPayableDate(row.due_date, row.days_valid_after_due))
    throw new AppError('invalid_state', 'The charge is past its last payable day: it cannot change.');
}

/** The charge as it would stand revised: the fields sent replace its own, a term sent null goes. */
function revisedInput(payment: PaymentRow, row: DueChargeRow, patch: DueChargePatchRequest): DueChargeInput {
  const input: DueChargeInput = {
    amount_minor: patch.amount_minor ?? row.nominal_minor.toString(),
    due_date: patch.due_date ?? row.due_date,
    days_valid_after_due: patch.days_valid_after_due ?? row.days_valid_after_due,
    debtor: patch.debtor ?? { name: row.debtor_name, document: row.debtor_document },
    description: payment.description ?? undefined,
  };
  for (const name of TERMS) {
    const term = patch[name] === undefined ? row.terms[name] : patch[name];
    if (term) (input as unknown as Record<string, unknown>)[name] = term;
  }
  return input;
}

/** The revision checked as a create is (400 on any fault), priced, and as the PSP takes it. */
async function prepareRevision(
  q: Queryable,
  ctx: Ctx,
  charge: { payment: PaymentRow; row: DueChargeRow },
  patch: DueChargePatchRequest,
) {
  const { payment, row } = charge;
  const today = await todayFor(q, ctx.deps, ctx.caller);
  assertRevisable(payment, row, today);
  const input = revisedInput(payment, row, patch);
  // A due date already passed may stay as it is; a new one is today or later, as on create.
  const checked = validateDueCharge(input, patch.due_date || row.due_date >= today ? today : row.due_date);
  const fee = await cashInFee(q, ctx.caller, checked.amount);
  const change = {
    due_date: input.due_date,
    days_valid_after_due: checked.daysValidAfterDue,
    nominal_minor: checked.amount,
    debtor_name: input.debtor.name,
    debtor_document: checked.document.value,
    debtor_document_type: checked.document.type as 'cpf' | 'cnpj',
    terms: checked.terms,
  };
  const psp: DueChargeRevision = {
    remove: false,
    charge: {
      paymentId: payment.id,
      amountMinor: checked.amount,
      dueDate: change.due_date,
      daysValidAfterDue: change.days_valid_after_due,
      debtor: {
        name: change.debtor_name,
        document: change.debtor_document,
        documentType: change.debtor_document_type,
      },
      description: payment.description,
      terms: checked.terms,
    },
  };
  return { change, fee, psp, expiresAt: endOfValidity(change.due_date, change.days_valid_after_due) };
}

/** Live: the PSP revises its cobv first; 503 when it is away, 422 when it refuses. */
async function reviseAtPsp(ctx: Ctx, payment: PaymentRow, revision: DueChargeRevision): Promise<void> {
  if (ctx.caller.environment !== 'live') return;
  const api = ctx.deps.providers.get('pix', 'live').dueCharges;
  if (!api || !payment.pix_txid)
    throw new AppError(
      'provider_unavailable',
      'The live PIX provider does not offer charges with a due date.',
    );
  await api.revise(payment.pix_txid, revision);
}

/** The charge read for a change: 404 unless it is a due-date charge the caller sees. */
async function chargeFor(ctx: Ctx, id: string, tx?: Tx) {
  const scope = scopeOf(ctx);
  const payment = tx ? await lockPayment(tx, scope, id) : await findPayment(ctx.deps.db, scope, id);
  const row = payment && (await findDueCharge(tx ?? ctx.deps.db, scope, id));
  if (!payment || !row) throw notFound('Due-date charge');
  return { payment, row };
}

/** Emits the charge's own event and answers it as GET does. */
async function announce(tx: Tx, ctx: Ctx, type: 'due_charge.updated' | 'due_charge.cancelled', id: string) {
  const view = await getDueCharge(tx, ctx, id);
  await emitEvent(tx, { ...scopeOf(ctx), type, object: view, at: ctx.deps.clock.now() });
  return view;
}

/** PATCH with status cancelled: the cobv removed at the PSP (live), then the charge and its payment. */
async function cancelDueCharge(ctx: Ctx, id: string, write: Write): Promise<DueChargeResponse> {
  const { payment, row } = await chargeFor(ctx, id);
  assertRevisable(payment, row, await todayFor(ctx.deps.db, ctx.deps, ctx.caller));
  await reviseAtPsp(ctx, payment, { remove: true });
  return write(async (tx) => {
    const at = ctx.deps.clock.now();
    const locked = await chargeFor(ctx, id, tx);
    // Paid or cancelled while the PSP was asked: the PSP's refusal would have said so, but the books decide.
    assertWaiting(locked.payment, locked.row);
    await cancelDueChargeRow(tx, scopeOf(ctx), id, at);
    await transition(tx, scopeOf(ctx), id, 'expired', { failure_reason: 'cancelled' }, { at });
    return announce(tx, ctx, 'due_charge.cancelled', id);
  });
}

/**
 * PATCH /v1/{env}/pix/due-charges/{id}: revises a waiting charge, or cancels it (status cancelled,
 * alone). `replay` says the Idempotency-Key already holds this request's answer: it is answered from
 * there, without asking the PSP again or refusing a charge the first request cancelled.
 */
export async function updateDueCharge(
  ctx: Ctx,
  input: { id: string; patch: DueChargePatchRequest; replay: boolean },
  write: Write,
): Promise<DueChargeResponse> {
  const { id, patch } = input;
  if (input.replay) return replayStoredAnswer(write);
  if (patch.status === 'cancelled') {
    const others = Object.keys(patch).filter((key) => key !== 'status');
    if (others.length > 0)
      throw invalidRequest(
        'A charge is cancelled with status alone: a cancellation carries no other change.',
        others.map((key) => ({ field: `body.${key}`, issue: 'not with status cancelled' })),
      );
    return cancelDueCharge(ctx, id, write);
  }
  const read = await chargeFor(ctx, id);
  // A revision that changes nothing would still count one at the PSP: refused, as nothing asked.
  if (Object.keys(patch).length === 0)
    throw invalidRequest('Send the fields to change, or status cancelled.', [
      { field: 'body', issue: 'names nothing to change' },
    ]);
  const asked = await prepareRevision(ctx.deps.db, ctx, read, patch);
  await reviseAtPsp(ctx, read.payment, asked.psp);
  return write(async (tx) => {
    const at = ctx.deps.clock.now();
    const locked = await chargeFor(ctx, id, tx);
    assertWaiting(locked.payment, locked.row);
    // In sandbox no PSP holds the terms asked: a revision committed since they were read is kept,
    // the fields sent applied over it. Live follows what the PSP was just told, its whole cobv.
    const revision =
      ctx.caller.environment === 'live' || locked.row.revision === read.row.revision
        ? asked
        : await prepareRevision(tx, ctx, locked, patch);
    const revised = await reviseDueChargeRow(tx, scopeOf(ctx), id, { ...revision.change, at });
    if (!revised) throw new AppError('invalid_state', 'The charge was cancelled: it cannot change.');
    await reviseWaitingCharge(tx, scopeOf(ctx), id, {
      amount: revision.change.nominal_minor,
      fee: revision.fee,
      expiresAt: revision.expiresAt,
      counterparty: {
        name: revision.change.debtor_name,
        document: revision.change.debtor_document,
        document_type: revision.change.debtor_document_type,
      },
      at,
    });
    return announce(tx, ctx, 'due_charge.updated', id);
  });
}
