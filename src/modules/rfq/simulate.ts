import type { Tx } from '../../db/types.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { quoteScope, quoteView } from './quotes.ts';
import { findQuoteRow, markExpired } from './repo.ts';
import type { QuoteView } from './schemas.ts';

/**
 * Sandbox helper: the quote passes its expires_at now, so executing it answers 422 quote_expired.
 * An expired quote stays expired (repeating the helper answers the same); an executed one is 409.
 */
export async function expireQuote(tx: Tx, ctx: Ctx, input: { id: string }): Promise<QuoteView> {
  const row = await findQuoteRow(tx, quoteScope(ctx), input.id, { forUpdate: true });
  if (!row) throw notFound('Quote');
  if (row.status === 'executed') {
    throw new AppError('quote_already_executed', `Quote ${row.id} was already executed.`);
  }
  const at = ctx.deps.clock.now();
  return quoteView(await markExpired(tx, row, at), at);
}
