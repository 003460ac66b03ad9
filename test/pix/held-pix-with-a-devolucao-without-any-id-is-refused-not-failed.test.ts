/**
 * A held PIX on which the PSP lists a MED devolução with neither id nor rtrId cannot have it applied
 * once and only once: assigning or returning it is refused with invalid_state (422), as the contract
 * documents, not an internal error, and nothing moves.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe('a held PIX whose PSP view lists a devolução without any id', () => {
  it('is refused assignment and return with invalid_state, nothing moved', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Devolução without any id');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    await psp.receive({ valor: '30.00' });
    const held = (await api.get('/v1/live/pix/unassigned')).json().data[0];
    const provider = world.deps.providers.get('pix', 'live');
    const original = provider.getReceivedPix!.bind(provider);
    provider.getReceivedPix = async (e2e) => {
      const pix = await original(e2e);
      const bare = { id: '', amountMinor: 1000n, natureza: 'MED_FRAUDE', status: 'completed' as const };
      return pix && { ...pix, returns: [...pix.returns, bare] };
    };
    try {
      for (const action of ['assign', 'return']) {
        const done = await api.post(
          `/v1/live/pix/unassigned/${held.id}/${action}`,
          action === 'assign' ? {} : undefined,
        );
        expect(done.statusCode, done.body).toBe(422);
        expect(done.json()).toMatchObject({ error: 'invalid_state' });
      }
    } finally {
      provider.getReceivedPix = original;
    }
    expect((await api.get(`/v1/live/pix/unassigned/${held.id}`)).json().data).toMatchObject({
      status: 'unassigned',
      amount_minor: '3000',
    });
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
  });
});
