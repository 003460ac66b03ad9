/** `lastro verify` as a test's last word: every journal sealed, then every check of the books clean. */
import { expect } from 'vitest';
import type { Database, Tx } from '../../src/db/types.ts';
import { createDeps } from '../../src/deps.ts';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { postJournal } from '../../src/ledger/ledger.ts';
import { sealJournals } from '../../src/ledger/seal.ts';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import type { Deps } from '../../src/platform/context.ts';
import type { TestContext } from './app.ts';

export async function expectBooksVerified(deps: Deps): Promise<void> {
  while ((await sealJournals(deps)) > 0);
  const report = await verifyBooks(deps.db, 20);
  expect(report.checks.filter((check) => check.violations > 0)).toEqual([]);
  expect(report.ok).toBe(true);
  expect(report.counts.journals).toBeGreaterThan(0);
  expect(report.chain.links).toBe(report.counts.journals);
}

/** A sandbox journal of 10 centavos into a party, posted straight on the ledger (for the sealer's tests). */
export const postTenCentavos = (tx: Tx, workspaceId: string, partyId: string) =>
  postJournal(tx, {
    workspaceId,
    environment: 'sandbox',
    referenceType: 'payment',
    referenceId: 'test',
    postings: [
      { account: systemAccount.pixSettlement(workspaceId, 'sandbox'), direction: 'debit', amount: 10n },
      { account: partyAccount(workspaceId, 'sandbox', partyId, 'BRL'), direction: 'credit', amount: 10n },
    ],
  });

/**
 * Deps of a new sealer (its first round a full sweep, its set-aside list empty) over the test's
 * database, with each transaction passed through `transaction` first.
 */
export function sealerDeps(
  ctx: TestContext,
  transaction: Database['transaction'] = ctx.db.transaction,
): Deps {
  const db = new Proxy(ctx.db, {
    get(target, prop) {
      if (prop === 'transaction') return transaction.bind(target);
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return createDeps(ctx.deps.config, db, { masterKey: 'aa'.repeat(32), clock: ctx.clock });
}
