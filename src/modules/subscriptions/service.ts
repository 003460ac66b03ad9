/**
 * Pix Automático subscriptions: what other modules and the routes may ask of this module. A
 * subscription is the API Pix's recurrence (rec); each cycle's charge (cobr) is scheduled by the
 * cycle task (cycles.ts) on the workspace's clock (clock.ts).
 */
import type { Queryable, Tx } from '../../db/types.ts';
import { parseAmount } from '../../ledger/currency.ts';
import { AppError, invalidRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { parseDocument } from '../../providers/pix/keys.ts';
import { owningParty, partyFilter } from '../parties/service.ts';
import { feeFor } from '../pix/service.ts';
import { subscriptionNow } from './clock.ts';
import { cancelOpenCycles } from './cycles.ts';
import { cancelAtPsp, closeWithdrawnCycles, createAtPsp, withdrawOpenCycles } from './live.ts';
import {
  cyclesOf,
  findSubscription,
  insertSubscription,
  listSubscriptionRows,
  planFailures,
  rowScope,
  type Scope,
  type SubscriptionRow,
  setNextAmount,
} from './repo.ts';
import { addDays, CHARGE_WINDOW_DAYS, dayOf } from './schedule.ts';
import type {
  AuthoriseRequest,
  CreateSubscriptionRequest,
  CycleView,
  FailPaymentsRequest,
  NextCycleRequest,
  SubscriptionListRequest,
  SubscriptionStatus,
  SubscriptionView,
} from './schemas.ts';
import { moveSubscription, viewOf } from './transitions.ts';
import { cycleView, emitSubscriptionEvent, subscriptionView } from './views.ts';

type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

const scopeOf = (ctx: Ctx): Scope => ({
  workspaceId: ctx.caller.workspaceId,
  environment: ctx.caller.environment,
});

/** The amounts and dates of a new subscription, or 400 naming the field; nothing is written before. */
function validate(input: CreateSubscriptionRequest, today: string) {
  if ((input.amount_minor === undefined) === (input.minimum_minor === undefined))
    throw invalidRequest('Give exactly one of amount_minor (fixed) or minimum_minor (variable).', [
      { field: 'body.amount_minor', issue: 'exactly one of amount_minor or minimum_minor' },
    ]);
  const fixed = input.amount_minor === undefined ? null : parseAmount(input.amount_minor);
  const minimum =
    input.minimum_minor === undefined
      ? null
      : parseAmount(input.minimum_minor, { field: 'body.minimum_minor' });
  const document = parseDocument(input.debtor.document.replace(/[.\-/\s]/g, ''));
  if (!document)
    throw invalidRequest('debtor.document must be a valid CPF or CNPJ.', [
      { field: 'body.debtor.document', issue: 'not a valid CPF or CNPJ' },
    ]);
  const earliest = addDays(today, CHARGE_WINDOW_DAYS.latest);
  if (!isDay(input.start_date) || input.start_date < earliest)
    throw invalidRequest(`start_date must be a date on or after ${earliest}.`, [
      {
        field: 'body.start_date',
        issue: `must be on or after ${earliest} (a cycle's charge goes out 2 days before it falls due at the latest)`,
      },
    ]);
  if (input.end_date !== undefined && (!isDay(input.end_date) || input.end_date < input.start_date))
    throw invalidRequest('end_date must be a date on or after start_date.', [
      { field: 'body.end_date', issue: 'must be on or after start_date' },
    ]);
  return { fixed, minimum, document, amount: (fixed ?? minimum)! };
}

const isDay = (text: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) &&
  !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
  new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);

/**
 * Creates a subscription awaiting the payer's authorisation. Live, the PSP registers the recurrence
 * first (POST /rec, outside any transaction); a failed write leaves a recurrence at the PSP that
 * nobody authorises and that expires there.
 */
export async function createSubscription(ctx: Ctx, input: CreateSubscriptionRequest, write: Write) {
  const { deps, caller } = ctx;
  const scope = scopeOf(ctx);
  const now = await subscriptionNow(deps.db, deps, scope);
  const { fixed, minimum, document, amount } = validate(input, dayOf(now));
  const partyId = await owningParty(deps.db, caller, input.party_id);
  const fee = await feeFor(deps.db, scope.workspaceId, scope.environment, 'pix_cash_in', amount);
  if (fee >= amount)
    throw new AppError('invalid_amount', `The cycle's amount must be more than the cash-in fee of ${fee}.`, [
      {
        field: fixed === null ? 'body.minimum_minor' : 'body.amount_minor',
        issue: `must be more than ${fee}`,
      },
    ]);
  const id = newId();
  const row = {
    workspace_id: scope.workspaceId,
    id,
    environment: scope.environment,
    party_id: partyId,
    status: 'pending_authorisation' as const,
    debtor_name: input.debtor.name,
    debtor_document: document.value,
    debtor_document_type: document.type as 'cpf' | 'cnpj',
    amount_minor: fixed,
    minimum_minor: minimum,
    frequency: input.frequency,
    start_date: input.start_date,
    end_date: input.end_date ?? null,
    retry_policy: input.retry_policy ?? 'none',
    description: input.description ?? null,
    provider_ref: null as string | null,
    authorised_at: null,
    cancelled_by: null,
    metadata: input.metadata ?? {},
    created_at: now,
    updated_at: now,
  };
  if (scope.environment === 'live') row.provider_ref = await createAtPsp(deps, row);
  return write(async (tx) => {
    const stored = await insertSubscription(tx, row);
    const view = subscriptionView(stored, []);
    await emitSubscriptionEvent(tx, 'subscription.created', stored, view, now);
    return view;
  });
}

async function ownSubscription(q: Queryable, ctx: Ctx, id: string, lock = false): Promise<SubscriptionRow> {
  const row = await findSubscription(q, scopeOf(ctx), id, { partyId: ctx.caller.partyId, lock });
  if (!row) throw notFound('Subscription');
  return row;
}

export async function getSubscription(q: Queryable, ctx: Ctx, input: { id: string }) {
  return viewOf(q, await ownSubscription(q, ctx, input.id));
}

/** A subscription's cycles, first to last: what each charged, and how its payment went. */
export async function listCycles(q: Queryable, ctx: Ctx, input: { id: string }): Promise<CycleView[]> {
  const row = await ownSubscription(q, ctx, input.id);
  return (await cyclesOf(q, rowScope(row), row.id)).map(cycleView);
}

export async function listSubscriptions(q: Queryable, ctx: Ctx, input: SubscriptionListRequest) {
  const partyId = await partyFilter(q, ctx.caller, input.party_id);
  const rows = await listSubscriptionRows(q, scopeOf(ctx), { partyId, status: input.status }, input);
  return Promise.all(rows.map((row) => viewOf(q, row)));
}

const OPEN: readonly SubscriptionStatus[] = ['pending_authorisation', 'active'];

/**
 * The receiver cancels: no cycle is charged after it, and the cycles not yet paid are cancelled. Live,
 * the PSP is told first (PATCH /rec/{idRec} status CANCELADA), then each open cycle's cobr is
 * withdrawn (PATCH /cobr/{txid}); one paid before it could be is credited.
 */
export async function cancelSubscription(
  ctx: Ctx,
  input: { id: string },
  write: Write,
): Promise<SubscriptionView> {
  const { deps } = ctx;
  const found = await ownSubscription(deps.db, ctx, input.id);
  if (!OPEN.includes(found.status))
    throw new AppError('invalid_state', `A ${found.status} subscription cannot be cancelled.`);
  const live = found.environment === 'live';
  if (live && found.provider_ref) await cancelAtPsp(deps, found.provider_ref);
  // The subscription is cancelled whatever the PSP says of its cobrs: one it does not answer for now
  // stays open, and the cycle task asks again until it is withdrawn or credited.
  const withdrawn = live ? await withdrawOpenCycles(deps, found) : [];
  const now = await subscriptionNow(deps.db, deps, scopeOf(ctx));
  // The answer is the write's alone: a re-send with the Idempotency-Key replays exactly it.
  return write(async (tx) => {
    const row = await ownSubscription(tx, ctx, input.id, true);
    if (!OPEN.includes(row.status))
      throw new AppError('invalid_state', `A ${row.status} subscription cannot be cancelled.`);
    await closeWithdrawnCycles(tx, deps, row, withdrawn, now);
    await cancelOpenCycles(tx, row, now);
    return moveSubscription(tx, row, { to: 'cancelled', at: now, cancelledBy: 'receiver' });
  });
}

/** Sandbox: the payer answers the authorisation request at their PSP. */
export async function simulateAuthorisation(
  ctx: Ctx,
  input: { id: string } & AuthoriseRequest,
  write: Write,
) {
  const now = await subscriptionNow(ctx.deps.db, ctx.deps, scopeOf(ctx));
  return write(async (tx) => {
    const row = await ownSubscription(tx, ctx, input.id, true);
    if (row.status !== 'pending_authorisation')
      throw new AppError('invalid_state', `A ${row.status} subscription has no authorisation to answer.`);
    return input.approve
      ? moveSubscription(tx, row, { to: 'active', at: now, authorised: true })
      : moveSubscription(tx, row, { to: 'refused', at: now });
  });
}

/** Sandbox: the payer's next payment attempts fail (an account without funds). */
export async function simulatePaymentFailures(
  ctx: Ctx,
  input: { id: string } & FailPaymentsRequest,
  write: Write,
) {
  return write(async (tx) => {
    const row = await ownSubscription(tx, ctx, input.id, true);
    if (!OPEN.includes(row.status))
      throw new AppError('invalid_state', `A ${row.status} subscription has no payments left to fail.`);
    await planFailures(tx, rowScope(row), row.id, input.attempts ?? 1);
    return viewOf(tx, row);
  });
}

/**
 * The amount of the next cycle charged of a variable-amount subscription (its cobr's valor.original):
 * at or above the floor the payer authorised (valorMinimoRecebedor), and at or below the payer's
 * maximum when their PSP reported one, else 422 amount_out_of_range and nothing changes. It is taken
 * by that cycle when its charge is scheduled; the cycle after it charges the floor unless set again.
 */
export async function setNextCycleAmount(ctx: Ctx, input: { id: string } & NextCycleRequest, write: Write) {
  const amount = parseAmount(input.amount_minor, { field: 'body.amount_minor' });
  const now = await subscriptionNow(ctx.deps.db, ctx.deps, scopeOf(ctx));
  return write(async (tx) => {
    const row = await ownSubscription(tx, ctx, input.id, true);
    if (!OPEN.includes(row.status))
      throw new AppError('invalid_state', `A ${row.status} subscription has no next cycle.`);
    if (row.minimum_minor === null)
      throw new AppError(
        'invalid_state',
        'A fixed-amount subscription charges its amount_minor (valorRec) every cycle.',
      );
    const out = outOfRange(amount, row.minimum_minor, row.payer_maximum_minor);
    if (out)
      throw new AppError('amount_out_of_range', `The next cycle's amount ${out}.`, [
        { field: 'body.amount_minor', issue: out },
      ]);
    return viewOf(tx, await setNextAmount(tx, rowScope(row), row.id, { amountMinor: amount, at: now }));
  });
}

function outOfRange(amount: bigint, floor: bigint, maximum: bigint | null): string | undefined {
  if (amount < floor) return `must be at least the subscription's minimum_minor of ${floor}`;
  if (maximum !== null && amount > maximum) return `must be at most the payer's maximum of ${maximum}`;
  return undefined;
}
