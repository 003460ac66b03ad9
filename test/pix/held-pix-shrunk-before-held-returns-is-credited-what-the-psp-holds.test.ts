/**
 * A PIX held before MED returns were kept beside it had its amount shrunk by them (what the PSP
 * still held). Assigned now, with the PSP showing its whole amount and the same devoluções, the party
 * gets what the PSP holds: each devolução taken once, not once by the old shrink and again as a
 * return.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a held PIX whose amount an earlier MED return shrank', () => {
  it('is credited what the PSP holds of it when assigned', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Shrunk before held returns');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const { endToEndId } = await psp.receive({ valor: '30.00' });
    await psp.medReturn(endToEndId, { valor: '10.00', natureza: 'MED_FRAUDE', notify: false });
    // As the held-amount model left it: 20.00 held, the devolução recorded nowhere else.
    await world.db.query('UPDATE pix_unassigned SET amount_minor = 2000 WHERE end_to_end_id = $1', [
      endToEndId,
    ]);
    const held = (await api.get('/v1/live/pix/unassigned')).json().data[0];
    expect(held).toMatchObject({ end_to_end_id: endToEndId, amount_minor: '2000' });

    const assigned = await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {});
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().data).toMatchObject({ status: 'assigned', amount_minor: '2000' });
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
    const again = await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(again).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
    await expectBooksVerified(world.deps);
  });
});
