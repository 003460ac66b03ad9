/**
 * A party that owes MED returns gets no spendable money back from a payout that failed: the hold
 * given back pays the debt in the same transaction, not 30 s later by the sweep, so the party cannot
 * send it out again meanwhile.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { liveWorkspace, pspIdOf, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

const owed = async (workspaceId: string) =>
  (
    await world.db.query<{ owed: string }>(
      'SELECT coalesce(sum(outstanding_minor), 0)::text AS owed FROM pix_med_returns WHERE workspace_id = $1',
      [workspaceId],
    )
  ).rows[0]!.owed;

describe('a payout that fails while its party owes MED returns', () => {
  it('pays the debt from the hold it gives back, at once', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Owes then payout fails');
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: '10000' })).json().data;
    const { endToEndId } = await psp.pay(charge.pix_txid);
    const payout = await api.post('/v1/live/pix/payouts', {
      amount_minor: '6000',
      pix_key: 'a@b.com',
      pix_key_type: 'email',
    });
    expect(payout.statusCode, payout.body).toBe(200);
    await world.drainJobs();
    await psp.medReturn(endToEndId, { valor: '100.00', natureza: 'MED_FRAUDE' });
    expect(await owed(ws.owner.workspaceId)).toBe('6100');

    await psp.settlePayout(pspIdOf(payout.json().data.id), 'NAO_REALIZADO');
    expect((await api.get(`/v1/live/payments/${payout.json().data.id}`)).json().data.status).toBe('failed');
    expect(await ws.balances('live')).toMatchObject({ available: '0', locked: '0' });
    expect(await owed(ws.owner.workspaceId)).toBe('0');
    await expectBooksVerified(world.deps);
  });
});
