/**
 * The hold top-up goes over every partly held dispute: disputes of parties that have nothing (more
 * than one page of them) do not keep a later dispute from holding the money its party receives.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { topUpHolds } from '../../src/modules/disputes/top-up.ts';
import { startWorld } from '../support/world.ts';
import { disputeUrl, openDispute, paidCashIn } from './support.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

describe('the dispute hold top-up', () => {
  it('a partly held dispute holds new money even behind a page of disputes whose parties have nothing', async () => {
    const broke = await world.workspace('Sem Saldo');
    await broke.setSettlementKey();
    const cashIns = [];
    for (let i = 0; i < 101; i++) cashIns.push(await paidCashIn(broke.api, '100'));
    await broke.payout('10000');
    expect(await broke.balances()).toMatchObject({ available: '0' });
    for (const cashIn of cashIns) await openDispute(broke.api, cashIn.id);

    const later = await world.workspace('Saldo Depois');
    await later.setSettlementKey();
    const first = await paidCashIn(later.api, '10000');
    await later.payout('5900');
    await world.drainJobs();
    const dispute = await openDispute(later.api, first.id);
    expect(dispute).toMatchObject({ held_minor: '4000', unheld_minor: '6000' });

    await paidCashIn(later.api, '2500');
    await topUpHolds(world.deps);
    expect((await later.api.get(disputeUrl(dispute.id))).json().data).toMatchObject({
      held_minor: '6500',
      unheld_minor: '3500',
    });
    expect(await later.balances()).toMatchObject({ available: '0', locked: '6500' });
  }, 120_000);
});
