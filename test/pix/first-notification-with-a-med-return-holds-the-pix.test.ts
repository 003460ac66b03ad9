/**
 * The first notification the PSP sends of a PIX without a charge may already carry a MED devolução
 * (the PIX's own notification never came): the PIX is held for the key's workspace all the same,
 * less what the PSP returned, never left unmatched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a first notification of a PIX without a charge that carries a MED return', () => {
  it('holds the PIX, less what the PSP returned', async () => {
    const { live: api, ws } = await liveWorkspace(world, 'First notice is a MED');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const { endToEndId } = await psp.receive({ valor: '30.00', notify: false });
    const { callback } = await psp.medReturn(endToEndId, { valor: '10.00', natureza: 'MED_OPERACIONAL' });
    expect(callback).toMatchObject({ status: 200, body: { data: { received: 1 } } });
    const held = (await api.get('/v1/live/pix/unassigned')).json().data;
    expect(held).toEqual([
      expect.objectContaining({ end_to_end_id: endToEndId, status: 'unassigned', amount_minor: '2000' }),
    ]);
    const again = await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(again).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
  });
});
