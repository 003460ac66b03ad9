/**
 * A PIX whose txid is none of our charges' (a merchant's static QR code carries a txid of its own)
 * is a PIX without a charge: once the PSP confirms it, it is held for the key's workspace, never
 * dropped as unmatched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a PIX with a txid that is not one of ours', () => {
  it('is held for the key’s workspace, once', async () => {
    const { live: api, ws } = await liveWorkspace(world, 'Static QR owner');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const { endToEndId } = await psp.receive({ valor: '12.00', notify: false });
    psp.received.find((pix) => pix.endToEndId === endToEndId)!.txid = 'lojaQrEstatico0001';
    const first = await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(first).toMatchObject({ status: 200, body: { data: { received: 1, settled: 1 } } });
    const again = await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(again).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    const held = (await api.get('/v1/live/pix/unassigned')).json().data;
    expect(held).toEqual([expect.objectContaining({ end_to_end_id: endToEndId, amount_minor: '1200' })]);
  });
});
