/**
 * Assigning or returning a held PIX asks the PSP what it shows of it first, outside the transaction:
 * while the PSP answers (slowly, maybe), the held PIX's row is not locked, and nothing else that
 * needs it waits on the PSP.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

/** Whether the held row can be locked at once from outside: given up after a second (PGlite queues). */
async function lockableNow(id: string): Promise<boolean> {
  const attempt = world.db
    .transaction(async (tx) => {
      await tx.query('SELECT id FROM pix_unassigned WHERE id = $1 FOR UPDATE NOWAIT', [id]);
      return true;
    })
    .catch(() => false);
  const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000));
  return Promise.race([attempt, late]);
}

describe('a held PIX assigned or returned', () => {
  it('is not locked while the PSP is asked about it', async () => {
    const { live: api, ws } = await liveWorkspace(world, 'PSP asked before the lock');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const provider = world.deps.providers.get('pix', 'live');
    const original = provider.getReceivedPix!.bind(provider);
    const seen: boolean[] = [];
    let heldId = '';
    provider.getReceivedPix = async (endToEndId) => {
      if (heldId) seen.push(await lockableNow(heldId));
      return original(endToEndId);
    };
    try {
      for (const action of ['assign', 'return']) {
        await psp.receive({ valor: '7.00' });
        heldId = (await api.get('/v1/live/pix/unassigned?status=unassigned')).json().data[0].id;
        const done = await api.post(
          `/v1/live/pix/unassigned/${heldId}/${action}`,
          action === 'assign' ? {} : undefined,
        );
        expect(done.statusCode, done.body).toBe(200);
        heldId = '';
      }
    } finally {
      provider.getReceivedPix = original;
    }
    expect(seen).toEqual([true, true]);
  });
});
