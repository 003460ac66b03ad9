/**
 * lastro_payment_transitions_total once moved inside the transaction, so a payout
 * refused for insufficient balance (its payment row rolled back) still counted status="created",
 * and the "Payments stuck" alert fired on refusals; lastro_ledger_postings_total the same for a
 * journal its transaction then rolled back. Counters move only once the transaction commits.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { systemAccount } from '../../src/ledger/accounts.ts';
import { postJournal } from '../../src/ledger/ledger.ts';
import { counted } from '../support/metrics.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

describe('counters of a rolled-back transaction', () => {
  it('a payout refused for insufficient balance counts no payment transition', async () => {
    const ws = await world.workspace({ settlementKey: true, fund: '1000' });
    const labels = { kind: 'pix_cash_out', status: 'created', environment: 'sandbox' };
    const before = await counted('lastro_payment_transitions_total', labels);
    const res = await ws.api.post('/v1/sandbox/pix/payouts', {
      amount_minor: '999999',
      pix_key: 'someone@example.com',
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toBe('insufficient_balance');
    expect(await ws.paymentCount('pix_cash_out')).toBe(0);
    expect(await counted('lastro_payment_transitions_total', labels)).toBe(before);
    await ws.payout('500');
    expect(await counted('lastro_payment_transitions_total', labels)).toBe(before + 1);
  });

  it('a journal whose transaction rolls back counts no posting', async () => {
    const ws = await world.workspace({});
    const labels = { environment: 'sandbox' };
    const before = await counted('lastro_ledger_postings_total', labels);
    const journal = (tx: Parameters<typeof postJournal>[0]) =>
      postJournal(tx, {
        workspaceId: ws.owner.workspaceId,
        environment: 'sandbox',
        referenceType: 'test',
        referenceId: 'rollback',
        postings: [
          {
            account: systemAccount.feeRevenue(ws.owner.workspaceId, 'sandbox', 'BRL'),
            direction: 'debit',
            amount: 5n,
          },
          {
            account: systemAccount.pixSettlement(ws.owner.workspaceId, 'sandbox'),
            direction: 'credit',
            amount: 5n,
          },
        ],
      });
    await expect(
      world.db.transaction(async (tx) => {
        await journal(tx);
        throw new Error('rolled back after the journal');
      }),
    ).rejects.toThrow('rolled back');
    expect(await counted('lastro_ledger_postings_total', labels)).toBe(before);
    await world.db.transaction(journal);
    expect(await counted('lastro_ledger_postings_total', labels)).toBe(before + 2);
  });
});
