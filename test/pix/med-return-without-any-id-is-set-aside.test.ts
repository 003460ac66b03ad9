/**
 * A MED devolução the PSP lists with neither an id nor an rtrId cannot be applied once and only once:
 * its notification item is set aside for an operator (set_aside_items, logged as an alert), and the
 * held PIX it names is left as it was, never silently shrunk or the devolução silently dropped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PSP_NOTIFICATION } from '../../src/modules/pix/notifications/receive.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a MED devolução with neither id nor rtrId', () => {
  it('is set aside, the held PIX left as it was', async () => {
    const { live: api, ws } = await liveWorkspace(world, 'MED without any id');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const { endToEndId } = await psp.receive({ valor: '30.00' });
    await psp.medReturn(endToEndId, { valor: '10.00', natureza: 'MED_FRAUDE', notify: false });
    const devolucao = [...psp.refunds.values()].find((r) => r.e2e === endToEndId)!;
    devolucao.id = '';
    devolucao.rtrId = '';
    const notified = await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(notified).toMatchObject({ status: 200, body: { data: { received: 1, settled: 0 } } });
    const { rows } = await world.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM set_aside_items WHERE source = $1',
      [PSP_NOTIFICATION],
    );
    expect(rows[0]!.n).toBe(1);
    const held = (await api.get('/v1/live/pix/unassigned')).json().data;
    expect(held).toEqual([expect.objectContaining({ end_to_end_id: endToEndId, amount_minor: '3000' })]);
  });
});
