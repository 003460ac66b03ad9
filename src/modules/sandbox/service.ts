import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { parseAmount } from '../../ledger/currency.ts';
import { postJournal } from '../../ledger/ledger.ts';
import { owningParty } from '../../ledger/parties.ts';
import type { Caller } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { createPayment } from '../payments/service.ts';

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
  // No cap below the wire's 16 digits: the settlement account debited is this workspace's own, so a
  // big amount reaches no other tenant's books, and a balance pushed past BIGINT answers 400.
  const amount = parseAmount(input.amount_minor);
  const partyId = await owningParty(tx, caller, input.party_id);
  const id = newId();
  await postJournal(tx, {
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
