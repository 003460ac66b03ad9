/**
 * dispute.deadline_approaching reaches every open dispute near its deadline: a page of nearer
 * disputes, told already, does not keep a farther one from its 48 h notice.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sendDeadlineNotices } from '../../src/modules/disputes/deadlines.ts';
import { startWorld } from '../support/world.ts';
import { disputeUrl, openDispute, paidCashIn } from './support.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();

describe('deadline notices behind a page of nearer disputes', () => {
  it('a dispute 47 h from its deadline is told, behind 101 nearer disputes told already', async () => {
    const ws = await world.workspace('Muitas Disputas');
    for (let i = 0; i < 101; i++) {
      const cashIn = await paidCashIn(ws.api, '100');
      await openDispute(ws.api, cashIn.id, { deadline_at: hoursAhead(30) });
    }
    expect(await sendDeadlineNotices(world.deps)).toBe(101);

    const farther = await openDispute(ws.api, (await paidCashIn(ws.api, '100')).id, {
      deadline_at: hoursAhead(47),
    });
    expect(await sendDeadlineNotices(world.deps)).toBe(1);
    expect((await ws.api.get(disputeUrl(farther.id))).json().data.deadline_notices_sent).toEqual(['48h']);
  }, 120_000);
});
