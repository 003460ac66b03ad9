/**
 * A MED return the PSP makes after assigning a held PIX asked it, and reports before the assignment's
 * transaction, is in the books once: recorded on the held PIX by the notification, applied to the
 * cash-in by the assignment, and found applied by the PSP's later reports. A failed return of a held
 * PIX whose devoluções were applied leaves it to assign again, credited what the PSP holds.
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

describe('a MED return racing the assignment of a held PIX', () => {
  it('debits the party once when reported between the PSP read and the write', async () => {
    const { ws, live: api } = await keyOwner('MED between read and write');
    const { endToEndId } = await psp.receive({ valor: '30.00' });
    const held = (await api.get('/v1/live/pix/unassigned')).json().data[0];
    const provider = world.deps.providers.get('pix', 'live');
    const original = provider.getReceivedPix!.bind(provider);
    provider.getReceivedPix = async (e2e) => {
      const seen = await original(e2e);
      await psp.medReturn(endToEndId, { valor: '10.00', natureza: 'MED_FRAUDE', notify: false });
      const reported = await original(e2e);
      expect(await applyUnassignedReturns(world.deps, ws.owner.workspaceId, reported!)).toBe(1);
      return seen;
    };
    const assigned = await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {}).finally(() => {
      provider.getReceivedPix = original;
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().data).toMatchObject({ amount_minor: '2000' });
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
    await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
    await expectBooksVerified(world.deps);
  });

  it('credits what the PSP holds when a failed return is assigned again', async () => {
    const { ws, live: api } = await keyOwner('MED, failed return, assigned');
    const { endToEndId } = await psp.receive({ valor: '30.00' });
    await psp.medReturn(endToEndId, { valor: '10.00', natureza: 'MED_FRAUDE' });
    const held = (await api.get('/v1/live/pix/unassigned')).json().data[0];
    const returned = await api.post(`/v1/live/pix/unassigned/${held.id}/return`);
    expect(returned.statusCode, returned.body).toBe(200);
    await world.drainJobs();
    const refund = [...psp.refunds.values()].find(
      (r) => r.e2e === endToEndId && !r.natureza?.startsWith('MED'),
    )!;
    await psp.settleRefund(refund.id, 'NAO_REALIZADO');
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
    expect((await api.get(`/v1/live/pix/unassigned/${held.id}`)).json().data).toMatchObject({
      status: 'unassigned',
      amount_minor: '2000',
    });
    await expectBooksVerified(world.deps);
    const assigned = await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {});
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
    await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
    await expectBooksVerified(world.deps);
  });
});
