/**
 * Live subscriptions at the PSP, over the BCB API Pix's Pix Automático endpoints (github.com/bacen/
 * pix-api openapi.yaml v2.9.0): the recurrence is created with POST /rec and polled with GET /rec/{idRec}
 * (APROVADA, REJEITADA, EXPIRADA, or CANCELADA by either side: encerramento.cancelamento.solicitante);
 * each cycle's cobr is sent with PUT /cobr/{txid} inside the 2-to-10-day window and polled with
 * GET /cobr/{txid} once due (CONCLUIDA paid; REJEITADA, EXPIRADA or CANCELADA failed; still ATIVA
 * with its attempt failed, retried with POST /cobr/{txid}/retentativa/{data} as the recurrence's
 * politicaRetentativa allows, the cycle failing once none is left). PSP calls are never made
 * inside a transaction; each answer is applied in one, under the subscription's lock.
 */
import type { Tx } from '../../db/types.ts';
import type { Deps } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type {
  NewRecurrence,
  PixAutomaticApi,
  RecurrenceState,
  RecurringChargeState,
} from '../../providers/pix/provider.ts';
import { subscriptionNow } from './clock.ts';
import {
  cancelCycle,
  cancelOpenCycles,
  creditCycle,
  failAttempt,
  isOpenCycle,
  nextCycle,
  retryOrFail,
  scheduleCycle,
  sendDayOf,
} from './cycles.ts';
import {
  type CycleRow,
  cyclesOf,
  findSubscription,
  type NewSubscriptionRow,
  rowScope,
  type SubscriptionRow,
  setPayerMaximum,
  updateCycle,
} from './repo.ts';
import { addDays, CHARGE_WINDOW_DAYS, dayOf, retryDateOf } from './schedule.ts';
import type { SubscriptionStatus } from './schemas.ts';
import { moveSubscription } from './transitions.ts';

const FREQUENCY: Record<SubscriptionRow['frequency'], NewRecurrence['frequency']> = {
  weekly: 'SEMANAL',
  monthly: 'MENSAL',
  quarterly: 'TRIMESTRAL',
  semiannual: 'SEMESTRAL',
  annual: 'ANUAL',
};

function automatic(deps: Deps): PixAutomaticApi {
  const api = deps.providers.get('pix', 'live').automatic;
  if (!api)
    throw new AppError(
      'provider_unavailable',
      'The live PIX provider does not offer Pix Automático: the operator sets PIX_RECEIVER_ACCOUNT and PIX_RECEIVER_ACCOUNT_TYPE.',
    );
  return api;
}

/** POST /rec: the recurrence's idRec at the PSP. */
export async function createAtPsp(deps: Deps, row: NewSubscriptionRow): Promise<string> {
  try {
    const created = await automatic(deps).createRecurrence({
      contract: row.id,
      description: row.description,
      debtor: {
        name: row.debtor_name,
        document: row.debtor_document,
        documentType: row.debtor_document_type,
      },
      startDate: row.start_date,
      endDate: row.end_date,
      frequency: FREQUENCY[row.frequency],
      fixedMinor: row.amount_minor,
      minimumMinor: row.minimum_minor,
      retryPolicy: row.retry_policy === 'none' ? 'NAO_PERMITE' : 'PERMITE_3R_7D',
    });
    return created.idRec;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'provider_unavailable',
      `The PIX provider refused the recurrence: ${(error as Error).message}.`,
    );
  }
}

/** PATCH /rec/{idRec} status CANCELADA; a refusal is 503 provider_unavailable naming the PSP's reason. */
export async function cancelAtPsp(deps: Deps, idRec: string): Promise<void> {
  try {
    await automatic(deps).cancelRecurrence(idRec);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      'provider_unavailable',
      `The PIX provider refused the cancellation: ${(error as Error).message}.`,
    );
  }
}

const STATUS_OF: Record<RecurrenceState['status'], SubscriptionStatus> = {
  CRIADA: 'pending_authorisation',
  APROVADA: 'active',
  REJEITADA: 'refused',
  EXPIRADA: 'expired',
  CANCELADA: 'cancelled',
};

/**
 * What the PSP says of the recurrence, applied when it differs: authorised, refused, expired,
 * cancelled; and the payer's maximum, when the PSP reports one.
 */
async function followRecurrence(deps: Deps, row: SubscriptionRow, now: Date): Promise<number> {
  const state = await automatic(deps).getRecurrence(row.provider_ref!);
  const maximum = state?.payerMaximumMinor;
  if (maximum && maximum !== row.payer_maximum_minor)
    await deps.db.transaction((tx) => setPayerMaximum(tx, rowScope(row), row.id, maximum));
  const to = state && STATUS_OF[state.status];
  if (!to || to === row.status || to === 'pending_authorisation') return 0;
  return deps.db.transaction(async (tx) => {
    const current = await findSubscription(tx, rowScope(row), row.id, { lock: true });
    if (!current || current.status !== row.status) return 0;
    if (to === 'cancelled' || to === 'expired') await cancelOpenCycles(tx, current, now);
    await moveSubscription(tx, current, {
      to,
      at: now,
      authorised: to === 'active',
      ...(to === 'cancelled' ? { cancelledBy: state.cancelledBy ?? 'payer' } : {}),
    });
    return 1;
  });
}

/**
 * Schedules the next cycle when today is its send day and still inside the window; a cycle whose
 * window closed (the worker was away) is skipped rather than sent late.
 */
async function scheduleLive(deps: Deps, row: SubscriptionRow, now: Date): Promise<number> {
  const today = dayOf(now);
  return deps.db.transaction(async (tx) => {
    const current = await findSubscription(tx, rowScope(row), row.id, { lock: true });
    if (current?.status !== 'active') return 0;
    const cycles = await cyclesOf(tx, rowScope(row), row.id);
    const next = nextCycle(current, cycles);
    if (next === 'ended') {
      if (cycles.some(isOpenCycle)) return 0;
      await moveSubscription(tx, current, { to: 'completed', at: now });
      return 1;
    }
    if (sendDayOf(current, next.due) > today) return 0;
    const late = today > addDays(next.due, -CHARGE_WINDOW_DAYS.latest);
    await scheduleCycle(tx, deps, current, next, late ? today : sendDayOf(current, next.due), now);
    return 1;
  });
}

/** PUT /cobr/{txid} for a cycle written but not yet sent; its txid makes a second send harmless. */
async function sendCycle(deps: Deps, row: SubscriptionRow, cycle: CycleRow, now: Date): Promise<number> {
  await automatic(deps).createRecurringCharge({
    txid: cycle.txid!,
    idRec: row.provider_ref!,
    dueDate: cycle.due_date,
    amountMinor: cycle.amount_minor,
    description: row.description,
  });
  await deps.db.transaction((tx) => updateCycle(tx, cycle, { status: cycle.status, sentAt: now }, now));
  return 1;
}

const OPEN_ATTEMPT = new Set(['SOLICITADA', 'AGENDADA', 'PAGA']);
const FAILED_ATTEMPT = new Set(['REJEITADA', 'EXPIRADA', 'CANCELADA']);

/**
 * A cobr still ATIVA whose attempts all failed (the payer's PSP rejected the last one: no funds, say):
 * the receiver asks for each retry itself (POST /cobr/{txid}/retentativa/{data}). The failure is
 * counted first, in a transaction (the cycle retrying on the policy's next future day, or failed
 * when none is left), and the retry asked after it commits: a crash between the two leaves a
 * retrying cycle whose date the PSP's attempts do not name, which the next round asks for, once.
 */
async function retryCycle(
  deps: Deps,
  row: SubscriptionRow,
  cycle: CycleRow,
  state: RecurringChargeState,
  now: Date,
): Promise<number> {
  if (state.attempts.some((attempt) => OPEN_ATTEMPT.has(attempt.status))) return 0;
  const failedAttempts = state.attempts.filter((attempt) => FAILED_ATTEMPT.has(attempt.status));
  const failed = failedAttempts.length;
  if (failed === 0) return 0;
  const today = dayOf(now);
  const moved = await deps.db.transaction(async (tx) => {
    const current = await findSubscription(tx, rowScope(row), row.id, { lock: true });
    const fresh =
      current && (await cyclesOf(tx, rowScope(row), row.id)).find((c) => c.sequence === cycle.sequence);
    if (!current || !fresh || !isOpenCycle(fresh)) return undefined;
    // The attempt counted now is the first failed one not yet counted, with the payer's PSP's reason.
    const why = { reason: 'psp_attempt_failed', rejection: failedAttempts[fresh.attempts]?.rejection };
    if (fresh.attempts < failed) return failAttempt(tx, current, fresh, now, why, today);
    // Counted, but its day passed before the retry was asked (the worker was away): the next day.
    if (fresh.next_attempt_date! > today) return fresh;
    const retry = retryDateOf(fresh.due_date, current.retry_policy, fresh.attempts, today);
    return retryOrFail(tx, current, fresh, now, why, { attempts: fresh.attempts, retry });
  });
  if (moved?.status !== 'retrying') return moved ? 1 : 0;
  const date = moved.next_attempt_date!;
  if (!state.attempts.some((attempt) => attempt.date === date))
    await automatic(deps).requestRetry(cycle.txid!, date);
  return 1;
}

/** GET /cobr/{txid} once the cycle is due: paid, failed, retried, or still waiting at the payer's PSP. */
async function followCycle(deps: Deps, row: SubscriptionRow, cycle: CycleRow, now: Date): Promise<number> {
  const state = await automatic(deps).getRecurringCharge(cycle.txid!);
  if (!state || state.status === 'CRIADA') return 0;
  if (state.status === 'ATIVA') return retryCycle(deps, row, cycle, state, now);
  return deps.db.transaction(async (tx) => {
    const current = await findSubscription(tx, rowScope(row), row.id, { lock: true });
    if (!current) return 0;
    if (state.status === 'CONCLUIDA')
      return (await creditCycle(tx, deps, current, cycle, now, state.endToEndId)) ? 1 : 0;
    // REJEITADA, EXPIRADA or CANCELADA is the cobr's end (a rejection no retry can mend): final.
    const rejection = state.ending ?? state.attempts.findLast((a) => a.rejection)?.rejection;
    await failAttempt(tx, { ...current, retry_policy: 'none' }, cycle, now, {
      reason: `psp_${state.status.toLowerCase()}`,
      rejection,
    });
    return 1;
  });
}

/**
 * An open cycle of a subscription that has ended: its cobr is withdrawn at the PSP (PATCH /cobr/{txid}
 * status CANCELADA, asked again each round until the PSP says it ended). One the payer paid first, or
 * paid anyway, is credited like any paid cycle: the money is the party's, never dropped.
 */
async function closeCycle(deps: Deps, row: SubscriptionRow, cycle: CycleRow, now: Date): Promise<number> {
  // A cycle not marked sent may still have reached the PSP (a send under way): it is asked too.
  const state = await automatic(deps).cancelRecurringCharge(cycle.txid!);
  if (state?.status === 'CRIADA' || state?.status === 'ATIVA') return 0;
  return deps.db.transaction(async (tx) => {
    const current = await findSubscription(tx, rowScope(row), row.id, { lock: true });
    if (!current) return 0;
    if (state?.status === 'CONCLUIDA')
      return (await creditCycle(tx, deps, current, cycle, now, state.endToEndId)) ? 1 : 0;
    return (await cancelCycle(tx, current, cycle, now)) ? 1 : 0;
  });
}

/** An open cycle whose cobr the PSP no longer holds payable, and what it answered of it. */
export interface WithdrawnCycle {
  cycle: CycleRow;
  state: RecurringChargeState | undefined;
}

/**
 * For a receiver's cancel, before its write: each open cycle's cobr withdrawn at the PSP (outside any
 * transaction). Those withdrawn or found paid come back to be closed in the cancel's own write, so its
 * answer, which a re-send with its Idempotency-Key replays, shows them. One still payable there, or
 * one the PSP does not answer for now, stays open: the cycle task asks again.
 */
export async function withdrawOpenCycles(deps: Deps, row: SubscriptionRow): Promise<WithdrawnCycle[]> {
  const withdrawn: WithdrawnCycle[] = [];
  for (const cycle of (await cyclesOf(deps.db, rowScope(row), row.id)).filter(isOpenCycle)) {
    if (!cycle.txid) continue;
    let state: RecurringChargeState | undefined;
    try {
      state = await automatic(deps).cancelRecurringCharge(cycle.txid);
    } catch {
      continue;
    }
    if (state?.status !== 'CRIADA' && state?.status !== 'ATIVA') withdrawn.push({ cycle, state });
  }
  return withdrawn;
}

/** In the cancel's transaction: each withdrawn cycle credited when its cobr was paid, else cancelled. */
export async function closeWithdrawnCycles(
  tx: Tx,
  deps: Deps,
  row: SubscriptionRow,
  withdrawn: readonly WithdrawnCycle[],
  now: Date,
): Promise<void> {
  for (const { cycle, state } of withdrawn) {
    if (state?.status === 'CONCLUIDA') await creditCycle(tx, deps, row, cycle, now, state.endToEndId);
    else await cancelCycle(tx, row, cycle, now);
  }
}

/** The open cycles of a live subscription that has ended, each withdrawn or credited; how many ended. */
export async function closeEndedCycles(deps: Deps, row: SubscriptionRow): Promise<number> {
  const now = await subscriptionNow(deps.db, deps, rowScope(row));
  let changes = 0;
  for (const cycle of (await cyclesOf(deps.db, rowScope(row), row.id)).filter(isOpenCycle))
    changes += cycle.txid ? await closeCycle(deps, row, cycle, now) : 0;
  return changes;
}

/** One live subscription brought up to date with its PSP; how many changes it made. */
export async function syncLiveSubscription(deps: Deps, row: SubscriptionRow): Promise<number> {
  if (!row.provider_ref) return 0;
  const now = await subscriptionNow(deps.db, deps, rowScope(row));
  const open = row.status === 'active' || row.status === 'pending_authorisation';
  let changes = open ? await followRecurrence(deps, row, now) : 0;
  const current = await findSubscription(deps.db, rowScope(row), row.id);
  if (!current) return changes;
  if (current.status !== 'active') return changes + (await closeEndedCycles(deps, current));
  changes += await scheduleLive(deps, current, now);
  const today = dayOf(now);
  for (const cycle of (await cyclesOf(deps.db, rowScope(row), row.id)).filter(isOpenCycle)) {
    if (!cycle.sent_at) changes += await sendCycle(deps, current, cycle, now);
    else if (cycle.due_date <= today) changes += await followCycle(deps, current, cycle, now);
  }
  return changes;
}
