import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { type PostingInput, postJournal } from '../../ledger/ledger.ts';
import { AppError, invalidRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { explainDisputeHolds } from '../disputes/service.ts';
import { assertMayMoveMoney } from '../parties/service.ts';
import type { PaymentView } from '../payments/schemas.ts';
import { createPayment } from '../payments/service.ts';
import { recoverPartyDebt } from '../pix/service.ts';
import { fillPrice, quoteScope, quoteStatus, quoteView } from './quotes.ts';
import { findQuoteRow, markExecuted, type QuoteRow } from './repo.ts';
import type { ExecuteInput } from './schemas.ts';

/** The quote an execute names: quote_id, or its alias id (both given must agree). */
export function quoteIdOf(input: ExecuteInput): string {
  const { quote_id: quoteId, id } = input;
  if (quoteId !== undefined && id !== undefined && quoteId.toLowerCase() !== id.toLowerCase()) {
    throw invalidRequest('quote_id and id name different quotes; send one of them.', [
      { field: 'body.id', issue: 'differs from quote_id' },
    ]);
  }
  const chosen = quoteId ?? id;
  if (chosen === undefined) {
    throw invalidRequest('quote_id is required.', [{ field: 'body.quote_id', issue: 'is required' }]);
  }
  return chosen;
}

/** The quote's party, after its checks: found (404), not executed (409), not expired (422). */
export async function lockOpenQuote(tx: Tx, ctx: Ctx, id: string): Promise<QuoteRow> {
  const row = await findQuoteRow(tx, quoteScope(ctx), id, { forUpdate: true });
  if (!row) throw notFound('Quote');
  const status = quoteStatus(row, ctx.deps.clock.now());
  if (status === 'executed') {
    throw new AppError('quote_already_executed', `Quote ${row.id} was already executed.`);
  }
  if (status === 'expired') {
    throw new AppError(
      'quote_expired',
      `Quote ${row.id} expired at ${row.expires_at.toISOString()}; ask for a new one.`,
    );
  }
  return row;
}

/**
 * Executes an open quote in one transaction, under the quote's row lock (so of concurrent executes
 * exactly one finds it open): one journal moves the base amount from the party to the workspace's
 * FX inventory and pays the net quote amount out of it, the fee to fee revenue; the rfq_settlement
 * payment is born completed; the quote is marked executed; quote.executed and payment.completed are
 * written. A balance that cannot cover the base amount is 422 insufficient_balance and nothing of
 * this is kept: the quote stays open.
 */
export async function executeQuote(tx: Tx, ctx: Ctx, input: ExecuteInput): Promise<PaymentView> {
  const quote = await lockOpenQuote(tx, ctx, quoteIdOf(input));
  const { workspace_id: workspaceId, environment, party_id: partyId } = quote;
  await assertMayMoveMoney(tx, workspaceId, partyId);
  const at = ctx.deps.clock.now();
  const paymentId = newId();
  // BRL an open dispute holds sits in locked: the refusal says so, not only that available is short.
  await explainDisputeHolds(tx, { workspaceId, environment, partyId }, () =>
    postJournal(tx, {
      workspaceId,
      environment,
      referenceType: 'payment',
      referenceId: paymentId,
      at,
      postings: settlementPostings(quote),
    }),
  );
  // BRL bought is a credit like any other: what the party owes of MED returns is paid from it first.
  if (quote.quote_currency === 'BRL')
    await recoverPartyDebt(tx, ctx.deps, { workspaceId, environment, partyId });
  const payment = await createSettlementPayment(tx, ctx, quote, { paymentId, at });
  const executed = await markExecuted(tx, quote, { paymentId, at, fillPrice: fillPrice(quote) });
  await emitEvent(tx, {
    workspaceId,
    environment,
    type: 'quote.executed',
    object: quoteView(executed, at),
    at,
  });
  return payment;
}

/**
 * The settlement's journal: the base amount from the party into the FX inventory, the gross quote
 * amount out of it, the net to the party and the fee (when there is one) to fee revenue.
 */
function settlementPostings(quote: QuoteRow): PostingInput[] {
  const { workspace_id: workspaceId, environment, party_id: partyId } = quote;
  const base = quote.base_currency;
  const target = quote.quote_currency;
  const postings = [
    {
      account: partyAccount(workspaceId, environment, partyId, base),
      direction: 'debit' as const,
      amount: quote.base_amount_minor,
    },
    {
      account: systemAccount.fxInventory(workspaceId, environment, base),
      direction: 'credit' as const,
      amount: quote.base_amount_minor,
    },
    {
      account: systemAccount.fxInventory(workspaceId, environment, target),
      direction: 'debit' as const,
      amount: quote.gross_amount_minor,
    },
    {
      account: partyAccount(workspaceId, environment, partyId, target),
      direction: 'credit' as const,
      amount: quote.quote_amount_minor,
    },
  ];
  if (quote.fee_minor > 0n) {
    postings.push({
      account: systemAccount.feeRevenue(workspaceId, environment, quote.fee_currency),
      direction: 'credit' as const,
      amount: quote.fee_minor,
    });
  }
  return postings;
}

/** The rfq_settlement payment, born completed, in the base currency with the quote's terms. */
function createSettlementPayment(
  tx: Tx,
  ctx: Ctx,
  quote: QuoteRow,
  { paymentId, at }: { paymentId: string; at: Date },
): Promise<PaymentView> {
  const base = quote.base_currency;
  return createPayment(
    tx,
    {
      id: paymentId,
      workspace_id: quote.workspace_id,
      environment: quote.environment,
      party_id: quote.party_id,
      kind: 'rfq_settlement',
      status: 'completed',
      amount_minor: quote.base_amount_minor,
      currency: base,
      // In target_currency, as on the quote (metadata.fee_currency says so).
      fee_minor: quote.fee_minor,
      source_currency: base,
      target_currency: quote.quote_currency,
      exchange_rate: quote.rate,
      quote_id: quote.id,
      idempotency_key: ctx.idempotencyKey ?? null,
      metadata: {
        target_amount_minor: quote.quote_amount_minor.toString(),
        fee_currency: quote.fee_currency,
      },
    },
    { at },
  );
}
