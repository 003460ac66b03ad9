/**
 * MED returns: the receiving PSP gives (part of) a PIX we received back to its payer, on its own, when
 * fraud or an operational failure is found (the Banco Central's Mecanismo Especial de Devolução). The
 * money has left already: the books follow. docs/architecture.md says why the model is this one.
 *
 * A return is taken from the party the charge credited, whole (the payer gets all of it). What its
 * available BRL cannot cover becomes a debt: posted to the workspace's party_receivable account and
 * kept per party as the return's `outstanding_minor`, which the party's next credits pay down, oldest
 * first. No party balance goes below zero and no service account absorbs it unseen.
 */
import { gatherInAttempt, isolate } from '../../db/group-commit.ts';
import type { Queryable, Tx } from '../../db/types.ts';
import { lockBalance, partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { takeLedgerGate } from '../../ledger/gate.ts';
import { type PostingInput, postJournal } from '../../ledger/ledger.ts';
import type { Deps, Environment } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { emitEvent } from '../../platform/outbox.ts';
import { eachApart, SetAsideError } from '../../platform/set-aside.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import type { ReceivedPix } from '../../providers/pix/provider.ts';
import type { PaymentView } from '../payments/schemas.ts';
import {
  createPayment,
  findPayment,
  lockPayment,
  type PaymentRow,
  paymentView,
  transition,
} from '../payments/service.ts';
import {
  findMedReturn,
  insertMedReturn,
  lockOwedReturns,
  noOwedReturns,
  owedByParty,
  partiesOwing,
  returnedOfCharge,
  setOutstanding,
} from './repo.ts';

/** The naturezas of a devolução the PSP makes itself under MED (API Pix, Devolucao.natureza). */
export const MED_NATUREZAS = ['MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'] as const;
export type MedNatureza = (typeof MED_NATUREZAS)[number];
export const isMedNatureza = (value: unknown): value is MedNatureza =>
  (MED_NATUREZAS as readonly unknown[]).includes(value);

/** The received PIX a MED return can take back: a charge's, and a Pix Automático cycle's. */
const RETURNABLE_KINDS: ReadonlySet<string> = new Set(['pix_cash_in', 'pix_automatic']);

export interface MedReturn {
  /** The PSP's id of the devolução: one return, however often it is reported. */
  returnId: string;
  rtrId: string | null;
  amountMinor: bigint;
  natureza: MedNatureza;
}

interface Scope {
  workspaceId: string;
  environment: Environment;
}

/**
 * Splits a return of `amount` against what the party has: taken from its balance, and the shortfall
 * it then owes. Pure, so its arithmetic is tested on its own (med-returns.test.ts).
 */
export function splitReturn(amount: bigint, available: bigint): { taken: bigint; shortfall: bigint } {
  const taken = available <= 0n ? 0n : available < amount ? available : amount;
  return { taken, shortfall: amount - taken };
}

/**
 * Pays debts, oldest first, from what a credit brought: each debt takes what is left, up to what it
 * is owed. Returns the new outstanding of each debt, in order. Pure (med-returns.test.ts).
 */
export function payDown(outstanding: readonly bigint[], available: bigint): bigint[] {
  let left = available > 0n ? available : 0n;
  return outstanding.map((owed) => {
    const paid = owed < left ? owed : left;
    left -= paid;
    return owed - paid;
  });
}

/**
 * What a MED return can still take of a PIX charge: its amount less its completed refunds and MED
 * returns (a payer refunded already is not paid again). Read without locking the charge: its amount
 * never changes, and refunds complete under the ledger gate, which the caller holds or takes next.
 */
export async function returnableOfCharge(q: Queryable, scope: Scope, chargeId: string): Promise<bigint> {
  const charge = await findPayment(q, scope, chargeId);
  if (!charge) return 0n;
  const left =
    charge.amount_minor - (await returnedOfCharge(q, charge.workspace_id, charge.id, ['completed']));
  return left > 0n ? left : 0n;
}

/**
 * The one path by which a MED return enters the books, whatever reported it (the PSP's notification,
 * the charge poll, a reconciliation, the sandbox simulator): in the caller's transaction, the charge
 * locked, once per devolução id. Answers the new pix_med_return payment, or undefined when that
 * devolução was applied before.
 */
export async function applyMedReturn(
  tx: Tx,
  deps: Deps,
  scope: Scope,
  chargeId: string,
  input: MedReturn,
): Promise<PaymentView | undefined> {
  // The gate before the charge: a refund's completion takes the gate (its journal), then the charge
  // (markRefundedWhenWhole), so a return that locked the charge first could wait on it crosswise.
  await takeLedgerGate(tx, scope.workspaceId);
  const charge = await lockPayment(tx, scope, chargeId);
  // A Pix Automático cycle is received money as a charge is: MED returns it the same way.
  if (!RETURNABLE_KINDS.has(charge.kind) || (charge.status !== 'completed' && charge.status !== 'refunded'))
    throw new AppError(
      'invalid_state',
      'Only a paid PIX charge (pix_cash_in) or subscription cycle (pix_automatic) can be returned under MED.',
    );
  if (await findMedReturn(tx, charge.workspace_id, charge.id, input.returnId)) return undefined;
  const returned = await returnableCheck(tx, charge, input.amountMinor);
  const at = deps.clock.now();
  const id = newId();
  const shortfall = await postReturn(tx, charge, id, input.amountMinor, at);
  const payment = await createPayment(
    tx,
    {
      id,
      workspace_id: charge.workspace_id,
      environment: charge.environment,
      party_id: charge.party_id,
      kind: 'pix_med_return',
      status: 'completed',
      amount_minor: input.amountMinor,
      currency: 'BRL',
      description: `MED return (${input.natureza})`,
      provider_ref: input.returnId,
      pix_tx_id: input.rtrId,
      related_payment_id: charge.id,
      counterparty: charge.counterparty,
      metadata: {
        natureza: input.natureza,
        psp_return_id: input.returnId,
        shortfall_minor: String(shortfall),
      },
    },
    { at },
  );
  await insertMedReturn(tx, {
    workspace_id: charge.workspace_id,
    payment_id: id,
    environment: charge.environment,
    party_id: charge.party_id,
    charge_id: charge.id,
    return_id: input.returnId,
    rtr_id: input.rtrId,
    natureza: input.natureza,
    amount_minor: input.amountMinor,
    shortfall_minor: shortfall,
    outstanding_minor: shortfall,
    at,
  });
  await announceCharge(tx, scope, charge.id, returned + input.amountMinor >= charge.amount_minor, at);
  return payment;
}

/**
 * The return's journal: the whole amount out through PIX settlement, taken from the party's available
 * BRL as far as it goes, the rest owed (party_receivable). Returns the shortfall.
 */
async function postReturn(
  tx: Tx,
  charge: { workspace_id: string; environment: Environment; party_id: string },
  paymentId: string,
  amount: bigint,
  at: Date,
): Promise<bigint> {
  const available = partyAccount(charge.workspace_id, charge.environment, charge.party_id, 'BRL');
  const { taken, shortfall } = splitReturn(amount, await lockBalance(tx, available));
  const postings: PostingInput[] = [
    {
      account: systemAccount.pixSettlement(charge.workspace_id, charge.environment),
      direction: 'credit',
      amount,
    },
  ];
  if (taken > 0n) postings.push({ account: available, direction: 'debit', amount: taken });
  if (shortfall > 0n)
    postings.push({
      account: receivable(charge.workspace_id, charge.environment),
      direction: 'debit',
      amount: shortfall,
    });
  await postJournal(tx, {
    workspaceId: charge.workspace_id,
    environment: charge.environment,
    referenceType: 'payment',
    referenceId: paymentId,
    at,
    postings,
  });
  return shortfall;
}

const receivable = (workspaceId: string, environment: Environment) =>
  systemAccount.partyReceivable(workspaceId, environment, 'BRL');

/**
 * The charge says it was returned: `refunded` once its returns and refunds cover all of it (as a
 * whole refund makes it), else payment.updated with the charge as it stands, its return beside it.
 */
async function announceCharge(tx: Tx, scope: Scope, chargeId: string, whole: boolean, at: Date) {
  const charge = await lockPayment(tx, scope, chargeId);
  if (whole && charge.status === 'completed') {
    await transition(tx, scope, chargeId, 'refunded', {}, { at });
    return;
  }
  await emitEvent(tx, { ...scope, type: 'payment.updated', object: paymentView(charge), at });
}

/**
 * Pays down what a party owes from its available BRL, oldest return first, in the caller's
 * transaction: what every credit to a party does next (a charge paid, a PIX assigned), and the
 * recovery sweep for credits that come another way. Returns what was recovered.
 */
export async function recoverPartyDebt(
  tx: Tx,
  deps: Deps,
  scope: Scope & { partyId: string },
  /**
   * The credit to the party's available BRL this transaction has made, or is still making (its
   * posting's promise): the transaction holds the workspace's gate, so the debts are asked for at once,
   * right behind the credit on the connection, and the balance is read only once the credit is in and
   * something is owed (two statements and a round trip fewer for the usual credit, which owes nothing).
   * In an interleaved attempt on PostgreSQL the party is asked with the batch's others at its end
   * instead, and one that owes sends the batch to its savepoint run, where it is asked here.
   */
  options: { justCredited?: Promise<unknown> } = {},
): Promise<bigint> {
  if (options.justCredited && gatherInAttempt(tx, noOwedReturns, scope)) return 0n;
  // The gate, then the balance, then the debts (lockBalance takes the gate): the order every writer
  // of the workspace's balances follows, so a credit and the recovery sweep cannot deadlock.
  const available = partyAccount(scope.workspaceId, scope.environment, scope.partyId, 'BRL');
  const held = options.justCredited ? undefined : await lockBalance(tx, available);
  const owed = await lockOwedReturns(tx, scope);
  if (owed.length === 0) return 0n;
  await options.justCredited; // what is paid down comes out of a balance that has the credit
  // What is owed was read before another request of an interleaved batch may have paid it down.
  isolate(tx);
  const balance = held ?? (await lockBalance(tx, available));
  const after = payDown(
    owed.map((row) => row.outstanding_minor),
    balance,
  );
  const at = deps.clock.now();
  let recovered = 0n;
  for (const [index, row] of owed.entries()) {
    const paid = row.outstanding_minor - after[index]!;
    if (paid === 0n) break;
    await postJournal(tx, {
      workspaceId: scope.workspaceId,
      environment: scope.environment,
      referenceType: 'payment',
      referenceId: row.payment_id,
      at,
      postings: [
        { account: available, direction: 'debit', amount: paid },
        { account: receivable(scope.workspaceId, scope.environment), direction: 'credit', amount: paid },
      ],
    });
    await setOutstanding(tx, scope.workspaceId, row.payment_id, after[index]!, at);
    recovered += paid;
  }
  return recovered;
}

/** What each party of the scope (or one party) owes of MED returns, in BRL minor units. */
export function partyDebts(q: Queryable, scope: Scope, partyId: string | null): Promise<Map<string, bigint>> {
  return owedByParty(q, scope, partyId);
}

const SWEEP_ROUND = 100;
const keyOf = (p: { workspace_id: string; environment: string; party_id: string }) =>
  `${p.workspace_id}|${p.environment}|${p.party_id}`;
/** Where the sweep's round-robin over owing parties stands ('' from the start). */
let sweepCursor = '';

/**
 * The recovery sweep: credits that reach a party other than through the PIX module (a conversion
 * into BRL, a payout that failed and gave its hold back) pay its debt here, a round at a time.
 */
export async function recoverDebts(deps: Deps): Promise<number> {
  const parties = await partiesOwing(deps.db, sweepCursor, SWEEP_ROUND);
  sweepCursor = parties.length < SWEEP_ROUND ? '' : keyOf(parties.at(-1)!);
  let recovered = 0;
  // A party whose recovery throws is set aside, or it would stop every round at the same place.
  const failures = await eachApart(
    deps.db,
    DEBT_RECOVERY,
    parties,
    (party) => ({
      key: keyOf(party),
      environment: party.environment as Environment,
      workspaceId: party.workspace_id,
      payload: party,
    }),
    async (party) => {
      const paid = await deps.db.transaction((tx) =>
        recoverPartyDebt(tx, deps, {
          workspaceId: party.workspace_id,
          environment: party.environment,
          partyId: party.party_id,
        }),
      );
      if (paid > 0n) recovered++;
    },
    () => deps.clock.now(),
  );
  if (failures.length > 0) throw new SetAsideError(DEBT_RECOVERY, failures);
  return recovered;
}

/** Where the debt-recovery sweep sets aside a party it could not recover from (set_aside_items.source). */
export const DEBT_RECOVERY = 'pix-debt-recovery';

export const debtRecovery: BackgroundTask = {
  name: DEBT_RECOVERY,
  intervalMs: 30_000,
  run: recoverDebts,
};

/**
 * The MED returns a PSP shows on one of our received PIX (its API's answer, never a notification's
 * word), each applied once through applyMedReturn in a transaction of its own. Returns how many
 * were applied now. Our own refunds (natureza ORIGINAL, our ids) are the outbound flow's.
 */
export async function applyPspReturns(
  deps: Deps,
  charge: { id: string; workspace_id: string },
  pix: ReceivedPix,
): Promise<number> {
  let applied = 0;
  for (const med of completedMedReturns(pix)) {
    const payment = await deps.db.transaction((tx) =>
      applyMedReturn(tx, deps, { workspaceId: charge.workspace_id, environment: 'live' }, charge.id, med),
    );
    if (payment) applied++;
  }
  return applied;
}

/**
 * The MED devoluções the PSP completed on a PIX, as returns to apply. One it lists without a valor,
 * or without any id (neither its id nor its rtrId), cannot be applied once and only once: it throws,
 * and the caller's item is set aside for an operator (set_aside_items), never dropped.
 */
export function completedMedReturns(pix: ReceivedPix): MedReturn[] {
  return pix.returns
    .filter((r) => isMedNatureza(r.natureza) && r.status === 'completed')
    .map((r) => {
      if (r.id === '') throw new Error(`MED devolução on ${pix.endToEndId} without an id or rtrId`);
      if (r.amountMinor === undefined) throw new Error(`MED devolução ${r.id} without a valor`);
      return {
        returnId: r.id,
        rtrId: r.rtrId ?? null,
        amountMinor: r.amountMinor,
        natureza: r.natureza as MedNatureza,
      };
    });
}

/** Refuses a return of more than is left of the charge; answers what was returned of it before. */
async function returnableCheck(tx: Tx, charge: PaymentRow, amountMinor: bigint): Promise<bigint> {
  const returned = await returnedOfCharge(tx, charge.workspace_id, charge.id, ['completed']);
  // As a refund of a charge refunded whole: its state, not the amount asked, refuses it.
  if (returned >= charge.amount_minor)
    throw new AppError('invalid_state', 'The charge is fully returned; nothing remains to return.');
  if (amountMinor <= 0n || amountMinor > charge.amount_minor - returned)
    throw new AppError(
      'invalid_amount',
      `At most ${charge.amount_minor - returned} of the charge can still be returned.`,
      [{ field: 'body.amount_minor', issue: `must be between 1 and ${charge.amount_minor - returned}` }],
    );
  return returned;
}
