import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { parseAmount } from '../../ledger/currency.ts';
import { postJournal } from '../../ledger/ledger.ts';
import { owningParty } from '../../ledger/parties.ts';
import type { Caller } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { createPayment } from '../payments/service.ts';
import { MAX_BR_CODE_AMOUNT_MINOR } from '../pix/brcode.ts';

/** Sandbox helpers exist only in sandbox: on a live path they are not there at all. */
export function requireSandbox(caller: Caller): void {
  if (caller.environment !== 'sandbox') throw notFound('Route');
}

/**
 * A PIX payment received from outside, settled at once: a completed pix_cash_in payment and its journal
 * (PIX settlement → the party's available BRL), with payment.completed, in the caller's transaction.
 */
export async function simulateCashIn(
  tx: Tx,
  caller: Caller,
  input: { amount_minor: string; party_id?: string; payer?: { name?: string; document?: string } },
  context: { at: Date; idempotencyKey?: string },
) {
  const { at } = context;
  requireSandbox(caller);
  const amount = parseAmount(input.amount_minor);
  // A PIX transfer carries at most what a BR Code can (R$ 9,999,999,999.99); the cap also keeps one
  // tenant from driving the shared sandbox settlement account to the BIGINT limit.
  if (amount > MAX_BR_CODE_AMOUNT_MINOR) {
    throw new AppError('invalid_amount', `amount_minor must be at most ${MAX_BR_CODE_AMOUNT_MINOR}.`, [
      { field: 'body.amount_minor', issue: `must be at most ${MAX_BR_CODE_AMOUNT_MINOR}` },
    ]);
  }
  const partyId = await owningParty(tx, caller, input.party_id);
  const id = newId();
  await postJournal(tx, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    referenceType: 'payment',
    referenceId: id,
    at,
    postings: [
      { account: systemAccount.pixSettlement(caller.environment), direction: 'debit', amount },
      {
        account: partyAccount(caller.workspaceId, caller.environment, partyId, 'BRL'),
        direction: 'credit',
        amount,
      },
    ],
  });
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
      idempotency_key: context.idempotencyKey ?? null,
      counterparty: input.payer
        ? { name: input.payer.name ?? null, document: input.payer.document ?? null }
        : null,
    },
    { at },
  );
}
