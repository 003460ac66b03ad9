/**
 * Live MED returns and PIX without a charge, against the fake PSP (test/support/fakes/pix-psp.ts):
 * a devolução the PSP makes itself debits the party once, whichever way it is reported; a return
 * larger than the party's balance is owed and recovered from its next credits; a PIX without a
 * charge is held for the key's workspace, listed, assigned or returned; the books verify.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pollLiveChargeReturns, pollLiveCharges } from '../../src/modules/pix/notifications/charge-poll.ts';
import { expectBooksVerified } from '../support/books.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

async function paidLiveCharge(name: string, amount: string) {
  const { ws, live: api } = await liveWorkspace(world, name);
  const created = await api.post('/v1/live/pix/charges', { amount_minor: amount });
  expect(created.statusCode, created.body).toBe(200);
  const charge = created.json().data;
  const paid = await psp.pay(charge.pix_txid);
  expect(paid.callback).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
  return { ws, api, charge, endToEndId: paid.endToEndId };
}

const medPayments = async (api: Awaited<ReturnType<typeof paidLiveCharge>>['api']) =>
  (await api.get('/v1/live/payments?kind=pix_med_return')).json().data;
const owed = async (workspaceId: string) =>
  (
    await world.db.query<{ owed: string }>(
      'SELECT coalesce(sum(outstanding_minor), 0)::text AS owed FROM pix_med_returns WHERE workspace_id = $1',
      [workspaceId],
    )
  ).rows[0]!.owed;

describe('live MED returns', () => {
  it('a partial MED return by webhook debits the party once; a repeated webhook and the polls change nothing', async () => {
    const { ws, api, charge, endToEndId } = await paidLiveCharge('Live MED partial', '10000');
    const { callback } = await psp.medReturn(endToEndId, { valor: '30.00', natureza: 'MED_OPERACIONAL' });
    expect(callback).toMatchObject({ status: 200, body: { data: { received: 1, settled: 1 } } });
    expect(await ws.balances('live')).toMatchObject({ available: '7000' });
    const [med] = await medPayments(api);
    expect(med).toMatchObject({
      kind: 'pix_med_return',
      status: 'completed',
      amount_minor: '3000',
      related_payment_id: charge.id,
      metadata: { natureza: 'MED_OPERACIONAL' },
    });

    const item = psp.pixView(endToEndId)!;
    const again = await psp.callback({ pix: [item] });
    expect(again).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    await pollLiveCharges(world.deps);
    await pollLiveChargeReturns(world.deps);
    expect(await ws.balances('live')).toMatchObject({ available: '7000' });
    expect(await medPayments(api)).toHaveLength(1);
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('completed');
    await expectBooksVerified(world.deps);
  });

  it('a MED return whose notification never came is applied by the returns poll, once', async () => {
    const { ws, api, charge, endToEndId } = await paidLiveCharge('Live MED poll', '5000');
    await psp.medReturn(endToEndId, { valor: '50.00', natureza: 'MED_PIX_AUTOMATICO', notify: false });
    await pollLiveChargeReturns(world.deps);
    await pollLiveChargeReturns(world.deps);
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
    expect(await medPayments(api)).toHaveLength(1);
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('refunded');
    const late = await psp.callback({ pix: [psp.pixView(endToEndId)!] });
    expect(late).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
  });

  it('a MED return still processing at the PSP moves nothing until it is DEVOLVIDO', async () => {
    const { ws, endToEndId } = await paidLiveCharge('Live MED processing', '2000');
    const { callback } = await psp.medReturn(endToEndId, {
      valor: '20.00',
      natureza: 'MED_FRAUDE',
      status: 'EM_PROCESSAMENTO',
    });
    expect(callback).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    expect(await ws.balances('live')).toMatchObject({ available: '2000' });
  });

  it('a return larger than the balance keeps the shortfall owed and takes it from the next credits', async () => {
    const { ws, api, endToEndId } = await paidLiveCharge('Live MED shortfall', '10000');
    const payout = await api.post('/v1/live/pix/payouts', {
      amount_minor: '6000',
      pix_key: 'a@b.com',
      pix_key_type: 'email',
    });
    expect(payout.statusCode, payout.body).toBe(200);
    expect(await ws.balances('live')).toMatchObject({ available: '3900' });
    await psp.medReturn(endToEndId, { valor: '100.00', natureza: 'MED_FRAUDE' });
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
    expect(await owed(ws.owner.workspaceId)).toBe('6100');
    await expectBooksVerified(world.deps);

    // The next charge paid goes first to what the party owes.
    const next = (await api.post('/v1/live/pix/charges', { amount_minor: '8000' })).json().data;
    await psp.pay(next.pix_txid);
    expect(await ws.balances('live')).toMatchObject({ available: '1900' });
    expect(await owed(ws.owner.workspaceId)).toBe('0');
    await world.drainJobs();
    await expectBooksVerified(world.deps);
  });
});

describe('live PIX without a charge', () => {
  it('is held for the key’s workspace, listed, assigned to a party or returned to the payer', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Live key owner');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const first = await psp.receive({ valor: '12.34', infoPagador: 'pedido 7' });
    expect(first.callback).toMatchObject({ status: 200, body: { data: { received: 1, settled: 1 } } });
    const repeat = await psp.callback({ pix: [psp.pixView(first.endToEndId)!] });
    expect(repeat).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    const second = await psp.receive({ valor: '5.00' });

    const listed = (await api.get('/v1/live/pix/unassigned?status=unassigned')).json().data;
    expect(listed).toHaveLength(2);
    const held = listed.find((p: { end_to_end_id: string }) => p.end_to_end_id === first.endToEndId);
    expect(held).toMatchObject({ status: 'unassigned', amount_minor: '1234', payer_info: 'pedido 7' });
    expect(await ws.balances('live')).toMatchObject({ available: '0' });

    const assigned = await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {});
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().data).toMatchObject({ status: 'assigned' });
    expect(await ws.balances('live')).toMatchObject({ available: '1234' });
    const twice = await api.post(`/v1/live/pix/unassigned/${held.id}/assign`, {});
    expect(twice.statusCode).toBe(422);

    const other = listed.find((p: { end_to_end_id: string }) => p.end_to_end_id === second.endToEndId);
    const returned = await api.post(`/v1/live/pix/unassigned/${other.id}/return`);
    expect(returned.statusCode, returned.body).toBe(200);
    const { refund_id } = returned.json().data;
    await world.drainJobs();
    const refund = [...psp.refunds.values()].find((r) => r.e2e === second.endToEndId)!;
    expect(refund).toMatchObject({ valor: '5.00', natureza: 'ORIGINAL' });
    await psp.settleRefund(refund.id, 'DEVOLVIDO');
    expect((await api.get(`/v1/live/payments/${refund_id}`)).json().data.status).toBe('completed');
    expect(await ws.balances('live')).toMatchObject({ available: '1234', locked: '0' });
    await expectBooksVerified(world.deps);
  });

  it('with no workspace owning the key, the PIX is set aside for an operator, never dropped', async () => {
    world.deps.config.pix.bcb!.unassignedWorkspaceId = undefined;
    const { callback } = await psp.receive({ valor: '1.00' });
    expect(callback?.status).toBe(200);
    const { rows } = await world.db.query(
      "SELECT * FROM set_aside_items WHERE source = 'pix-psp-notification' AND resolved_at IS NULL",
    );
    expect(rows.length).toBeGreaterThan(0);
  });
});
