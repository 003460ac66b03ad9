/**
 * Reconciliation of a PIX held without a charge that the PSP returned part of under MED: the books
 * hold what the PSP received and the devolução beside it, so neither an amount_mismatch nor a
 * return_not_reflected is reported for it, held or, once assigned, as a cash-in.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/modules/pix/reconciliation/service.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

const since = new Date(Date.now() - 60_000);
const findingsOn = async (endToEndId: string) =>
  (
    await reconcile(world.deps, {
      environment: 'live',
      from: since,
      to: new Date(Date.now() + 60_000),
      trigger: 'on_demand',
    })
  ).findings.filter((f) => f.endToEndId === endToEndId);

describe('reconciliation of a held PIX reduced by a MED return', () => {
  it('finds nothing, held or assigned', async () => {
    const { live: api, ws } = await liveWorkspace(world, 'Reconciled held PIX');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const { endToEndId } = await psp.receive({ valor: '30.00' });
    await psp.medReturn(endToEndId, { valor: '10.00', natureza: 'MED_FRAUDE' });
    const held = (await api.get('/v1/live/pix/unassigned')).json().data[0];
    expect(held).toMatchObject({ end_to_end_id: endToEndId, amount_minor: '2000' });
    expect(await findingsOn(endToEndId)).toEqual([]);
    expect((await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {})).statusCode).toBe(200);
    expect(await findingsOn(endToEndId)).toEqual([]);
  });
});
