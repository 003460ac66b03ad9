/**
 * Returns of held PIX made before a return's cash-in and refund were marked held_return are marked by
 * a migration: a failed one's money, back in suspense, is what verify expects, and the cash-in it was
 * made of cannot be refunded by the default party. A held PIX's assigned cash-in stays its party's.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

const MIGRATION = new URL('../../src/db/migrations/0031_held_return_marks.sql', import.meta.url);

describe('a return of a held PIX made before held_return marks', () => {
  it('is marked, so its failure verifies and its cash-in is not refundable', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Held return before the mark');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const returnedPix = await psp.receive({ valor: '5.00' });
    const assignedPix = await psp.receive({ valor: '3.00' });
    const list = (await api.get('/v1/live/pix/unassigned')).json().data;
    const heldOf = (e2e: string) => list.find((p: { end_to_end_id: string }) => p.end_to_end_id === e2e);
    const returned = await api.post(`/v1/live/pix/unassigned/${heldOf(returnedPix.endToEndId).id}/return`);
    expect(returned.statusCode, returned.body).toBe(200);
    const assigned = await api.post(
      `/v1/live/pix/unassigned/${heldOf(assignedPix.endToEndId).id}/assign`,
      {},
    );
    expect(assigned.statusCode, assigned.body).toBe(200);
    // As the code before the mark wrote them.
    await world.db.query(
      `UPDATE payments SET metadata = metadata - 'held_return' WHERE id = ANY($1::uuid[])`,
      [[returned.json().data.payment_id, returned.json().data.refund_id]],
    );
    for (const statement of (await readFile(MIGRATION, 'utf8')).split(/;\s*\n/))
      if (statement.replace(/--.*$/gm, '').trim()) await world.db.query(statement);

    await world.drainJobs();
    const refund = [...psp.refunds.values()].find((r) => r.e2e === returnedPix.endToEndId)!;
    await psp.settleRefund(refund.id, 'NAO_REALIZADO');
    expect(await ws.balances('live')).toMatchObject({ available: '300' });
    await expectBooksVerified(world.deps);
    const { payment_id } = returned.json().data;
    const again = await api.post(`/v1/live/payments/${payment_id}/refund`, { amount_minor: '200' });
    expect(again.statusCode).toBe(422);
    const own = await api.post(`/v1/live/payments/${assigned.json().data.payment_id}/refund`, {
      amount_minor: '100',
    });
    expect(own.statusCode, own.body).toBe(200);
  });
});
