/**
 * What a live PSP notifies on the API Pix callback (`POST …/pix` with `{"pix": [...]}`): a PIX
 * received on a charge, a devolução's outcome (in the item's `devolucoes`), or an Efí payout's
 * (`gnExtras.idEnvio`). A notification only says "look": money moves after the PSP's API confirms
 * it, through the same paths as the poll, so a forged or repeated item moves nothing.
 */
import { createHash } from 'node:crypto';
import type { Deps } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { isRoundError, type SetAsideFailure, setAside as setAsideItem } from '../../../platform/set-aside.ts';
import { fromPspAmount } from '../../../providers/pix/bcb/money.ts';
import { END_TO_END_ID } from '../../../providers/pix/end-to-end-id.ts';
import type { PixProvider, ReceivedPix } from '../../../providers/pix/provider.ts';
import { paymentIdOf } from '../../../providers/pix/psp-id.ts';
import { findPayment } from '../../payments/service.ts';
import { payCharge } from '../charge-payment.ts';
import { isCancelledDueCharge } from '../due-charges-repo.ts';
import { applyPspReturns, isMedNatureza } from '../med-returns.ts';
import { pixTransfers } from '../transfers.ts';
import { recordUnassigned } from '../unassigned.ts';
import { applyUnassignedReturns } from '../unassigned-med.ts';
import {
  findLiveCharge,
  findLiveCycle,
  findLivePayment,
  type LivePayment,
  type NotificationKind,
  type NotificationRecord,
  recordNotification,
} from './repo.ts';

type Item = Record<string, unknown>;
const isObject = (value: unknown): value is Item =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface NotificationReceipt {
  /** Items in the notification. */
  received: number;
  /** Items that moved money now. */
  settled: number;
  /** Items that failed, set aside for an operator (set_aside_items). */
  setAside?: SetAsideFailure[];
}

/** Where a notification item that fails is set aside (set_aside_items.source). */
export const PSP_NOTIFICATION = 'pix-psp-notification';

export async function receivePixNotification(deps: Deps, body: unknown): Promise<NotificationReceipt> {
  const provider = deps.providers.get('pix', 'live');
  const record = (entry: Omit<NotificationRecord, 'provider'>) =>
    recordNotification(deps.db, { provider: provider.name, ...entry });
  const items = isObject(body) && Array.isArray(body.pix) ? body.pix : undefined;
  if (!items) {
    await record({ kind: 'malformed', outcome: 'malformed', payload: body });
    return { received: 0, settled: 0 };
  }
  let settled = 0;
  const setAside: SetAsideFailure[] = [];
  for (const item of items) {
    if (!isObject(item)) {
      await record({ kind: 'malformed', outcome: 'malformed', payload: item });
      continue;
    }
    // An item that throws would make the PSP send the whole notification again, forever, and the
    // items after it never be read: it is set aside (the charge poll and the reconciliation sweep
    // still settle what it named) and the rest of the notification is handled.
    try {
      settled += await receiveItem(deps, provider, item, record);
    } catch (error) {
      if (isRoundError(error)) throw error;
      const key = createHash('sha256').update(JSON.stringify(item)).digest('hex');
      setAside.push(
        await setAsideItem(
          deps.db,
          PSP_NOTIFICATION,
          { key, environment: 'live', payload: item },
          error,
          deps.clock.now(),
        ),
      );
    }
  }
  return { received: items.length, settled, setAside };
}

type Recorder = (entry: Omit<NotificationRecord, 'provider'>) => Promise<boolean>;

async function receiveItem(deps: Deps, provider: PixProvider, item: Item, record: Recorder): Promise<number> {
  const extras = isObject(item.gnExtras) ? item.gnExtras : undefined;
  if (extras?.idEnvio !== undefined) return transferOutcome(deps, 'payout', extras.idEnvio, item, record);
  const refunds = Array.isArray(item.devolucoes) ? item.devolucoes : [];
  const onCharge = item.txid !== undefined && item.txid !== null;
  let settled = 0;
  if (onCharge) settled += await chargePaid(deps, provider, item, record);
  let med = false;
  for (const refund of refunds) {
    // A MED devolução is the PSP's own, never one of our refunds: its id is the PSP's.
    if (isObject(refund) && isMedNatureza(refund.natureza)) med = true;
    else if (isObject(refund)) settled += await transferOutcome(deps, 'refund', refund.id, refund, record);
    else await record({ kind: 'malformed', outcome: 'malformed', payload: refund });
  }
  if (med) settled += await medReturned(deps, provider, item, record);
  if (!onCharge && refunds.length === 0) settled += await receivedWithoutCharge(deps, provider, item, record);
  return settled;
}

/**
 * The PSP returned (part of) a PIX of ours under MED: what its API shows of that PIX is applied,
 * each devolução once, through the path the charge poll and the sandbox take too.
 */
async function medReturned(deps: Deps, provider: PixProvider, item: Item, record: Recorder): Promise<number> {
  const { endToEndId } = item;
  if (typeof endToEndId !== 'string' || !END_TO_END_ID.test(endToEndId)) {
    await record({ kind: 'malformed', outcome: 'malformed', payload: item });
    return 0;
  }
  const pix = await provider.getReceivedPix?.(endToEndId);
  const found = pix?.txid ? await findLiveCharge(deps.db, pix.txid) : undefined;
  // A cycle's PIX is not one without a charge: holding it would count the cycle's money twice. Its
  // return takes the charge's path, from the party the cycle credited.
  const cycle = pix?.txid && !found ? await findLiveCycle(deps.db, pix.txid) : undefined;
  if (cycle && cycle.status === 'created') {
    // Not credited yet: the returns poll applies the devolução once the cycle task has credited it.
    await record({
      kind: 'refund',
      reference: endToEndId,
      outcome: 'pending',
      paymentId: cycle.id,
      payload: item,
    });
    return 0;
  }
  const charge = found ?? cycle;
  if (pix && !charge) return medReturnedWithoutCharge(deps, pix, item, record);
  if (!pix || !charge) {
    await record({
      kind: 'refund',
      reference: endToEndId,
      outcome: pix ? 'unmatched' : 'unconfirmed',
      payload: item,
    });
    return 0;
  }
  const applied = await applyPspReturns(deps, charge, pix);
  const confirmed = pix.returns.some((r) => isMedNatureza(r.natureza) && r.status === 'completed');
  await record({
    kind: 'refund',
    reference: endToEndId,
    outcome: applied > 0 ? 'settled' : confirmed ? 'duplicate' : 'pending',
    paymentId: charge.id,
    payload: item,
  });
  return applied;
}

/**
 * A MED return on a PIX that reached no charge: held for the key's workspace (its devoluções recorded
 * beside it) or assigned to a party (its cash-in is returned, as a charge is). A PIX whose first
 * notification already carries the devolução is held first, then the return is applied to it.
 */
async function medReturnedWithoutCharge(
  deps: Deps,
  pix: ReceivedPix,
  item: Item,
  record: Recorder,
): Promise<number> {
  const workspaceId = deps.config.pix.bcb?.unassignedWorkspaceId;
  let applied = workspaceId ? await applyUnassignedReturns(deps, workspaceId, pix) : undefined;
  const held = applied === undefined && (await holdReceived(deps, pix)) ? 1 : 0;
  if (held) applied = (await applyUnassignedReturns(deps, workspaceId!, pix)) ?? 0;
  const confirmed = pix.returns.some((r) => isMedNatureza(r.natureza) && r.status === 'completed');
  await record({
    kind: 'refund',
    reference: pix.endToEndId,
    outcome:
      applied === undefined ? 'unmatched' : applied > 0 ? 'settled' : confirmed ? 'duplicate' : 'pending',
    payload: item,
  });
  return held + (applied ?? 0);
}

/**
 * A PIX to our key without a charge of ours (a static key, a plain transfer): once the PSP's API
 * confirms it, held for the workspace that owns the key, to assign or return. With no such workspace
 * configured it throws, and the item is set aside for an operator: never dropped.
 */
async function receivedWithoutCharge(
  deps: Deps,
  provider: PixProvider,
  item: Item,
  record: Recorder,
): Promise<number> {
  const { endToEndId } = item;
  if (typeof endToEndId !== 'string' || !END_TO_END_ID.test(endToEndId)) {
    await record({ kind: 'malformed', outcome: 'malformed', payload: item });
    return 0;
  }
  const pix = await provider.getReceivedPix?.(endToEndId);
  const ours = pix?.txid
    ? ((await findLiveCharge(deps.db, pix.txid)) ?? (await findLiveCycle(deps.db, pix.txid)))
    : undefined;
  if (!pix || ours || pix.amountMinor === undefined || pix.amountMinor <= 0n) {
    await record({ kind: 'unknown', reference: endToEndId, outcome: 'unconfirmed', payload: item });
    return 0;
  }
  const held = await holdReceived(deps, pix);
  await record({
    kind: 'unknown',
    reference: endToEndId,
    outcome: held ? 'unassigned' : 'duplicate',
    payload: item,
  });
  return held ? 1 : 0;
}

/**
 * Holds a PIX the PSP confirmed, that reached no charge of ours, for the workspace that owns the key:
 * true when held now, false when held before or the PSP gave no amount. Throws when no workspace holds
 * such PIX (the item is set aside for an operator).
 */
async function holdReceived(deps: Deps, pix: ReceivedPix): Promise<boolean> {
  if (pix.amountMinor === undefined || pix.amountMinor <= 0n) return false;
  const workspaceId = deps.config.pix.bcb?.unassignedWorkspaceId;
  if (!workspaceId)
    throw new AppError(
      'invalid_state',
      'A PIX without a charge arrived and no workspace holds them: set PIX_UNASSIGNED_WORKSPACE_ID.',
    );
  const id = await recordUnassigned(deps.db, {
    workspaceId,
    environment: 'live',
    endToEndId: pix.endToEndId,
    amountMinor: pix.amountMinor,
    payerInfo: pix.payerInfo ?? null,
    at: deps.clock.now(),
  });
  return id !== undefined;
}

/** A PIX received on a charge: credited once, after the PSP's GET /cob/{txid} shows it paid. */
async function chargePaid(deps: Deps, provider: PixProvider, item: Item, record: Recorder): Promise<number> {
  const { txid, endToEndId } = item;
  const amount = fromPspAmount(item.valor);
  if (
    typeof txid !== 'string' ||
    typeof endToEndId !== 'string' ||
    !END_TO_END_ID.test(endToEndId) ||
    amount === undefined
  ) {
    await record({ kind: 'malformed', outcome: 'malformed', payload: item });
    return 0;
  }
  const note = (outcome: NotificationRecord['outcome'], payment?: LivePayment) =>
    record({ kind: 'charge', reference: endToEndId, outcome, paymentId: payment?.id, payload: item });
  const payment = await findLiveCharge(deps.db, txid);
  const charge = payment?.status === 'created' ? await provider.getCharge?.(txid) : undefined;
  const confirmed =
    charge?.status === 'paid' &&
    amount === payment!.amount_minor &&
    charge.payments.some((pix) => pix.endToEndId === endToEndId && pix.amountMinor === payment!.amount_minor);
  // A txid none of ours (a merchant's static QR code carries one): a PIX without a charge of ours.
  if (!payment) return receivedWithoutCharge(deps, provider, item, record);
  if (payment.status === 'expired' && (await isCancelledDueCharge(deps.db, payment)))
    return paidAfterCancel(deps, provider, { payment, txid, endToEndId }, item, record);
  if (!confirmed) {
    await note(outcomeOnSettled(payment.status), payment);
    return 0;
  }
  return settleCharge(deps, provider.name, payment, endToEndId, item);
}

/**
 * A PIX on a due-date charge its receiver cancelled (the cobv REMOVIDA_PELO_USUARIO_RECEBEDOR): the
 * payer's PSP should have refused it, but money that arrives anyway, once the PSP's API confirms it,
 * is held for the charge's workspace as a PIX without a charge, to assign to a party or return to the
 * payer: never credited on a cancelled charge, never dropped.
 */
async function paidAfterCancel(
  deps: Deps,
  provider: PixProvider,
  paid: { payment: LivePayment; txid: string; endToEndId: string },
  item: Item,
  record: Recorder,
): Promise<number> {
  const { payment, txid, endToEndId } = paid;
  const pix = await provider.getReceivedPix?.(endToEndId);
  const confirmed = pix?.txid === txid && pix.amountMinor !== undefined && pix.amountMinor > 0n;
  const held =
    confirmed &&
    (await recordUnassigned(deps.db, {
      workspaceId: payment.workspace_id,
      environment: 'live',
      endToEndId,
      amountMinor: pix.amountMinor!,
      payerInfo: pix.payerInfo ?? null,
      at: deps.clock.now(),
    })) !== undefined;
  await record({
    kind: 'charge',
    reference: endToEndId,
    outcome: held ? 'unassigned' : confirmed ? 'duplicate' : 'unconfirmed',
    paymentId: payment.id,
    payload: item,
  });
  return held ? 1 : 0;
}

/** A charge no longer waiting: paid already (a repeat), or expired or failed (an operator looks). */
const outcomeOnSettled = (status: string): NotificationRecord['outcome'] =>
  status === 'created'
    ? 'unconfirmed'
    : status === 'completed' || status === 'refunded'
      ? 'duplicate'
      : 'rejected';

/**
 * Credits a charge the PSP confirmed paid, once per endToEndId (the notification and the poll both
 * come here). A charge our rules refuse (expired meanwhile) is recorded for an operator.
 */
export async function settleCharge(
  deps: Deps,
  providerName: string,
  payment: LivePayment,
  endToEndId: string,
  payload: unknown,
): Promise<number> {
  const scope = { workspaceId: payment.workspace_id, environment: 'live' as const };
  const entry = {
    provider: providerName,
    kind: 'charge' as const,
    reference: endToEndId,
    paymentId: payment.id,
    payload,
  };
  try {
    return await deps.db.transaction(async (tx) => {
      if (!(await recordNotification(tx, { ...entry, outcome: 'settled' }, `charge:${endToEndId}`))) return 0;
      await payCharge(tx, deps, scope, payment.id, endToEndId);
      return 1;
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'invalid_state') throw error;
    await recordNotification(deps.db, { ...entry, outcome: 'rejected' });
    return 0;
  }
}

/** A payout's or refund's outcome: the flow asks the PSP and settles it as a poll would. */
async function transferOutcome(
  deps: Deps,
  kind: Extract<NotificationKind, 'payout' | 'refund'>,
  pspId: unknown,
  item: Item,
  record: Recorder,
): Promise<number> {
  const paymentId = paymentIdOf(pspId);
  const reference = typeof pspId === 'string' ? pspId : null;
  const payment = paymentId
    ? await findLivePayment(deps.db, paymentId, kind === 'payout' ? 'pix_cash_out' : 'pix_refund')
    : undefined;
  if (!payment) {
    await record({ kind, reference, outcome: paymentId ? 'unmatched' : 'malformed', payload: item });
    return 0;
  }
  const open = payment.status === 'created' || payment.status === 'processing';
  if (open) {
    await pixTransfers.poll(deps, {
      paymentId: payment.id,
      workspaceId: payment.workspace_id,
      environment: 'live',
    });
  }
  const now = await findPayment(
    deps.db,
    { workspaceId: payment.workspace_id, environment: 'live' },
    payment.id,
  );
  const moved = open && now !== undefined && now.status !== 'created' && now.status !== 'processing';
  await record({
    kind,
    reference,
    outcome: moved ? 'settled' : open ? 'pending' : 'duplicate',
    paymentId: payment.id,
    payload: item,
  });
  return moved ? 1 : 0;
}
