/**
 * PIX charges with a due date (the BCB API Pix's CobV: github.com/bacen/pix-api, openapi.yaml
 * v2.9.0). A due-date charge is a cash-in charge (payment kind pix_cash_in) whose terms live in
 * pix_due_charges: what paying it costs depends on the day (due-amount.ts), and it can be paid until
 * due_date + days_valid_after_due, São Paulo. Sandbox days are the workspace's sandbox clock's
 * (modules/test-clock); live days are real ones. Live charges are PUT /cobv/{txid} at the PSP.
 */
import type { Queryable, Tx } from '../../db/types.ts';
import type { Caller, Deps } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { DEFAULT_TIME_ZONE, localDateOf, nextDay, startOfLocalDay } from '../../platform/time-zone.ts';
import { withoutAmount } from '../../providers/pix/brcode.ts';
import type { NewDueCharge } from '../../providers/pix/due-charge-api.ts';
import { maskDocument } from '../../providers/pix/keys.ts';
import { owningParty } from '../parties/service.ts';
import { createPayment, findPayment, type PaymentRow, type PaymentScope } from '../payments/service.ts';
import { nowFor } from '../test-clock/index.ts';
import { cashInFee } from './charges.ts';
import { pixCurrencyOf } from './checks.ts';
import { type AmountDue, amountDue, lastPayableDate } from './due-amount.ts';
import { type DueChargeRow, findDueCharge, insertDueCharge } from './due-charges-repo.ts';
import { dueCheckoutUrl } from './due-checkout-token.ts';
import type { DueChargeResponse } from './due-schemas.ts';
import { type DueChargeInput, validateDueCharge } from './due-terms.ts';

export const ZONE = DEFAULT_TIME_ZONE;

/** Today in São Paulo for the caller: the sandbox clock's date in sandbox, the real one in live. */
export async function todayFor(
  q: Queryable,
  deps: Deps,
  scope: { workspaceId: string; environment: Caller['environment'] },
) {
  return localDateOf(await nowFor(q, deps.clock, scope), ZONE);
}

/** The instant a charge stops being payable: the start of the day after its last payable date. */
export function endOfValidity(dueDate: string, daysValidAfterDue: number): Date {
  const [year, month, day] = lastPayableDate(dueDate, daysValidAfterDue).split('-').map(Number);
  return startOfLocalDay(nextDay({ year: year!, month: month!, day: day! }), ZONE);
}

/** A checked request, ready for the PSP and the books. */
export interface PreparedDueCharge {
  paymentId: string;
  input: DueChargeInput;
  partyId: string;
  fee: bigint;
  provider: NewDueCharge;
  expiresAt: Date;
}

/** Checks a request (400 on any fault, nothing written) and prices its fee. */
export async function prepareDueCharge(
  ctx: Ctx,
  input: DueChargeInput,
  today: string,
): Promise<PreparedDueCharge> {
  const { caller, deps } = ctx;
  const checked = validateDueCharge(input, today);
  pixCurrencyOf(input.currency, 'PIX charges are in BRL.');
  const partyId = await owningParty(deps.db, caller, input.party_id);
  const fee = await cashInFee(deps.db, caller, checked.amount);
  const paymentId = newId();
  return {
    paymentId,
    input,
    partyId,
    fee,
    expiresAt: endOfValidity(input.due_date, checked.daysValidAfterDue),
    provider: {
      paymentId,
      amountMinor: checked.amount,
      dueDate: input.due_date,
      daysValidAfterDue: checked.daysValidAfterDue,
      debtor: {
        name: input.debtor.name,
        document: checked.document.value,
        documentType: checked.document.type as 'cpf' | 'cnpj',
      },
      description: input.description ?? null,
      terms: checked.terms,
    },
  };
}

/** The BR Code of a charge: the PSP's cobv in live; the sandbox PSP's own code in sandbox. */
export async function issueDueCharge(deps: Deps, caller: Caller, charge: PreparedDueCharge) {
  const provider = deps.providers.get('pix', caller.environment);
  if (caller.environment === 'sandbox') {
    const issued = await provider.createCharge({
      paymentId: charge.paymentId,
      amountMinor: charge.provider.amountMinor,
      description: charge.input.description,
      expiresAt: charge.expiresAt,
    });
    // The sandbox code is static: it must not fix the original when the day asks another amount.
    return { ...issued, brCode: withoutAmount(issued.brCode) };
  }
  if (!provider.dueCharges)
    throw new AppError(
      'provider_unavailable',
      'The live PIX provider does not offer charges with a due date.',
    );
  return provider.dueCharges.create(charge.provider);
}

/** Records a charge the PSP issued: its payment and its terms, in the caller's transaction. */
export async function recordDueCharge(
  tx: Tx,
  ctx: Ctx,
  charge: PreparedDueCharge,
  issued: { txid: string; brCode: string | null; providerRef: string },
): Promise<DueChargeResponse> {
  const { caller, deps } = ctx;
  const at = deps.clock.now();
  const { provider, input } = charge;
  await createPayment(
    tx,
    {
      id: charge.paymentId,
      workspace_id: caller.workspaceId,
      environment: caller.environment,
      party_id: charge.partyId,
      kind: 'pix_cash_in',
      amount_minor: provider.amountMinor,
      currency: 'BRL',
      fee_minor: charge.fee,
      description: input.description ?? null,
      pix_qr_code: issued.brCode,
      pix_txid: issued.txid,
      provider_ref: issued.providerRef,
      expires_at: charge.expiresAt,
      idempotency_key: ctx.idempotencyKey ?? null,
      metadata: input.metadata,
      counterparty: {
        name: provider.debtor.name,
        document: provider.debtor.document,
        document_type: provider.debtor.documentType,
      },
    },
    { at },
  );
  const row: DueChargeRow = {
    workspace_id: caller.workspaceId,
    payment_id: charge.paymentId,
    environment: caller.environment,
    due_date: provider.dueDate,
    days_valid_after_due: provider.daysValidAfterDue,
    nominal_minor: provider.amountMinor,
    debtor_name: provider.debtor.name,
    debtor_document: provider.debtor.document,
    debtor_document_type: provider.debtor.documentType,
    terms: provider.terms,
    created_at: at,
  };
  await insertDueCharge(tx, row);
  const payment = await findPayment(tx, caller, charge.paymentId);
  return dueChargeView(payment!, row, await todayFor(tx, deps, caller), deps);
}

/** POST /v1/{env}/pix/due-charges: checks, issues at the PSP (outside any transaction), records. */
export async function createDueCharge(
  ctx: Ctx,
  input: DueChargeInput,
  write: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
): Promise<DueChargeResponse> {
  const today = await todayFor(ctx.deps.db, ctx.deps, ctx.caller);
  const charge = await prepareDueCharge(ctx, input, today);
  const issued = await issueDueCharge(ctx.deps, ctx.caller, charge);
  return write((tx) => recordDueCharge(tx, ctx, charge, issued));
}

const ZERO: AmountDue = {
  total_minor: 0n,
  original_minor: 0n,
  fine_minor: 0n,
  interest_minor: 0n,
  rebate_minor: 0n,
  discount_minor: 0n,
};

const chargeOf = (row: DueChargeRow) => ({
  nominalMinor: row.nominal_minor,
  dueDate: row.due_date,
  terms: row.terms,
});

/** What paying costs on `today`; zero once paid, expired or past its last payable day. */
export function dueToday(payment: PaymentRow, row: DueChargeRow, today: string): AmountDue {
  const payable =
    payment.status === 'created' &&
    !row.cancelled_at &&
    today <= lastPayableDate(row.due_date, row.days_valid_after_due);
  return payable ? amountDue(chargeOf(row), today) : ZERO;
}

/** The charge as the API shows it; `deps` (PUBLIC_BASE_URL, the master key) make its checkout_url. */
export function dueChargeView(
  payment: PaymentRow,
  row: DueChargeRow,
  today: string,
  deps: Pick<Deps, 'config' | 'sealer'>,
): DueChargeResponse {
  const due = dueToday(payment, row, today);
  const text = (value: bigint) => value.toString();
  return {
    id: payment.id,
    status: row.cancelled_at ? 'cancelled' : payment.status,
    revision: row.revision ?? 0,
    cancelled_at: iso(row.cancelled_at ?? null),
    amount_minor: text(payment.amount_minor),
    due_date: row.due_date,
    days_valid_after_due: row.days_valid_after_due,
    last_payable_date: lastPayableDate(row.due_date, row.days_valid_after_due),
    debtor: {
      name: row.debtor_name,
      document: maskDocument(row.debtor_document),
      document_type: row.debtor_document_type,
    },
    fine: (row.terms.fine ?? null) as DueChargeResponse['fine'],
    interest: (row.terms.interest ?? null) as DueChargeResponse['interest'],
    rebate: (row.terms.rebate ?? null) as DueChargeResponse['rebate'],
    discount: (row.terms.discount ?? null) as DueChargeResponse['discount'],
    today,
    amount_due_today_minor: text(due.total_minor),
    amount_due_today: {
      original_minor: text(due.original_minor),
      fine_minor: text(due.fine_minor),
      interest_minor: text(due.interest_minor),
      rebate_minor: text(due.rebate_minor),
      discount_minor: text(due.discount_minor),
    },
    party_id: payment.party_id,
    currency: payment.currency,
    description: payment.description,
    pix_txid: payment.pix_txid,
    pix_qr_code: payment.pix_qr_code,
    checkout_url: dueCheckoutUrl(deps, row),
    expires_at: iso(payment.expires_at),
    completed_at: iso(payment.completed_at),
    created_at: iso(payment.created_at),
    metadata: payment.metadata ?? {},
  };
}

/** GET /v1/{env}/pix/due-charges/{id}: the charge, with what paying it today costs. */
export async function getDueCharge(q: Queryable, ctx: Ctx, id: string): Promise<DueChargeResponse> {
  const scope = {
    workspaceId: ctx.caller.workspaceId,
    environment: ctx.caller.environment,
    partyId: ctx.caller.partyId,
  };
  const payment = await findPayment(q, scope, id);
  const row = payment && (await findDueCharge(q, scope, id));
  if (!payment || !row) throw notFound('Due-date charge');
  return dueChargeView(payment, row, await todayFor(q, ctx.deps, ctx.caller), ctx.deps);
}

/**
 * What a due-date charge asks when paid on `day` (São Paulo); undefined for any other charge. A
 * charge past its last payable day, or one its rebate and discount bring to nothing, cannot be paid.
 */
export async function amountDueOn(
  q: Queryable,
  scope: PaymentScope,
  id: string,
  day: string,
): Promise<bigint | undefined> {
  const row = await findDueCharge(q, scope, id);
  if (!row) return undefined;
  // The payer's PSP refuses a removed cobv: nothing is paid, nothing credited.
  if (row.cancelled_at)
    throw new AppError('invalid_state', 'The charge was cancelled by its receiver: it cannot be paid.');
  if (day > lastPayableDate(row.due_date, row.days_valid_after_due))
    throw new AppError('invalid_state', 'The charge has expired: its last payable day has passed.');
  const due = amountDue(chargeOf(row), day).total_minor;
  if (due === 0n) throw new AppError('invalid_state', 'Nothing is due on this charge today.');
  return due;
}
