/**
 * A MED return the PSP made while a PIX without a charge was held is in the books once: when the PIX
 * is assigned, its cash-in is of all the PSP received and the return is applied to it as a MED return,
 * so the PSP's later reports of the same devolução (a repeated notification, the returns poll) find it
 * applied and debit the party nothing more. What is held is recorded once per devolução, even when the
 * PSP's answer lacks the PIX's amount.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { applyUnassignedReturns } from '../../src/modules/pix/unassigned-med.ts';
import { expectBooksVerified } from '../support/books.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

async function keyOwner(name: string) {
  const owner = await liveWorkspace(world, name);
  world.deps.config.pix.bcb!.unassignedWorkspaceId = owner.ws.owner.workspaceId;
  return owner;
}
type Api = Awaited<ReturnType<typeof keyOwner>>['live'];
const heldOf = async (api: Api, endToEndId: string) =>
  (await api.get('/v1/live/pix/unassigned'))
    .json()
    .data.find((p: { end_to_end_id: string }) => p.end_to_end_id === endToEndId);

describe('a MED return made while a PIX without a charge was held', () => {
  it('debits the party it is assigned to once, however often the PSP reports it after', async () => {
    const { ws, live: api } = await keyOwner('MED while held, then assigned');
    const { endToEndId } = await psp.receive({ valor: '30.00' });
    const { callback } = await psp.medReturn(endToEndId, { valor: '10.00', natureza: 'MED_FRAUDE' });
    expect(callback).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
    const held = await heldOf(api, endToEndId);
    expect(held).toMatchObject({ status: 'unassigned', amount_minor: '2000' });
    const assigned = await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {});
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });

    const again = await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(again).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
    const returns = (await api.get('/v1/live/payments?kind=pix_med_return')).json().data;
    expect(returns).toEqual([
      expect.objectContaining({ amount_minor: '1000', related_payment_id: assigned.json().data.payment_id }),
    ]);
    await expectBooksVerified(world.deps);
  });

  it('is held once when the PSP reports it again without the PIX’s amount', async () => {
    const { live: api, ws } = await keyOwner('MED while held, no valor');
    const { endToEndId } = await psp.receive({ valor: '30.00' });
    const { id } = await psp.medReturn(endToEndId, { valor: '10.00', natureza: 'MED_FRAUDE', notify: false });
    const pix = {
      endToEndId,
      amountMinor: undefined,
      returns: [{ id, amountMinor: 1000n, natureza: 'MED_FRAUDE', status: 'completed' as const }],
    };
    const workspaceId = ws.owner.workspaceId;
    expect(await applyUnassignedReturns(world.deps, workspaceId, pix)).toBe(1);
    expect(await applyUnassignedReturns(world.deps, workspaceId, pix)).toBe(0);
    expect(await heldOf(api, endToEndId)).toMatchObject({ status: 'unassigned', amount_minor: '2000' });
  });
});
