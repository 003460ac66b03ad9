/**
 * A MED return on a PIX received without a charge reaches the books: on one already assigned, the
 * party is debited as for a charge; on one still held, the held amount shrinks, and a PIX the PSP
 * took back whole can no longer be assigned (nor credit the party money that has left).
 */
import { afterAll, describe, expect, it } from 'vitest';
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
const heldOf = async (api: Awaited<ReturnType<typeof keyOwner>>['live'], endToEndId: string) =>
  (await api.get('/v1/live/pix/unassigned'))
    .json()
    .data.find((p: { end_to_end_id: string }) => p.end_to_end_id === endToEndId);

describe('a MED return on a PIX without a charge', () => {
  it('once it is assigned, debits the party it was assigned to', async () => {
    const { ws, live: api } = await keyOwner('MED on assigned PIX');
    const { endToEndId } = await psp.receive({ valor: '50.00' });
    const held = await heldOf(api, endToEndId);
    expect((await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {})).statusCode).toBe(200);
    expect(await ws.balances('live')).toMatchObject({ available: '5000' });
    const { callback } = await psp.medReturn(endToEndId, { valor: '50.00', natureza: 'MED_FRAUDE' });
    expect(callback).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
    const again = await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(again).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
    await expectBooksVerified(world.deps);
  });

  it('while it is held, shrinks it; returned whole, it cannot be assigned', async () => {
    const { ws, live: api } = await keyOwner('MED on held PIX');
    const whole = await psp.receive({ valor: '40.00' });
    const { callback } = await psp.medReturn(whole.endToEndId, { valor: '40.00', natureza: 'MED_FRAUDE' });
    expect(callback).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
    const closed = await heldOf(api, whole.endToEndId);
    expect(closed).toMatchObject({ status: 'returned', refund_id: null });
    const assign = await api.post(`/v1/live/pix/unassigned/${closed.id}/assign`, {});
    expect(assign.statusCode).toBe(422);
    expect(await ws.balances('live')).toMatchObject({ available: '0' });

    const part = await psp.receive({ valor: '30.00' });
    await psp.medReturn(part.endToEndId, { valor: '10.00', natureza: 'MED_OPERACIONAL' });
    expect(await heldOf(api, part.endToEndId)).toMatchObject({ status: 'unassigned', amount_minor: '2000' });
    const assigned = await api.post(
      `/v1/live/pix/unassigned/${(await heldOf(api, part.endToEndId)).id}/assign`,
      {},
    );
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
    await expectBooksVerified(world.deps);
  });

  it('returned by the PSP before any notification came, is checked with the PSP when assigned', async () => {
    const { ws, live: api } = await keyOwner('MED before assign');
    const { endToEndId } = await psp.receive({ valor: '25.00' });
    await psp.medReturn(endToEndId, { valor: '25.00', natureza: 'MED_FRAUDE', notify: false });
    const held = await heldOf(api, endToEndId);
    expect(held).toMatchObject({ status: 'unassigned' });
    expect((await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {})).statusCode).toBe(422);
    expect((await api.post(`/v1/live/pix/unassigned/${held.id}/return`)).statusCode).toBe(422);
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
  });
});
