/**
 * `lastro verify` cross-checks each MED return's record against its payment: a record whose amount
 * or party was changed behind the service's back is named, though the journals still net.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import { CPF, startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

async function returnedCharge(name: string) {
  const ws = await world.workspace(name);
  const created = await ws.api.post('/v1/sandbox/pix/charges', {
    amount_minor: '10000',
    payer: { name: 'Bia', document: CPF },
  });
  const id = created.json().data.id;
  await ws.api.post(`/v1/sandbox/simulate/payments/${id}/pay`);
  const med = await ws.api.post(`/v1/sandbox/simulate/payments/${id}/med-return`, { amount_minor: '4000' });
  expect(med.statusCode, med.body).toBe(200);
  return { ws, returnId: med.json().data.id as string };
}

const violations = async () =>
  (await verifyBooks(world.db, 1000)).checks.find((c) => c.name === 'med_return_record')?.examples ?? [];

describe('the MED return record check', () => {
  it('passes on untouched books and names a record whose amount or party was changed', async () => {
    const { ws, returnId } = await returnedCharge('MED record');
    expect((await verifyBooks(world.db, 1000)).ok).toBe(true);
    await world.db.query(
      'UPDATE pix_med_returns SET amount_minor = 4001 WHERE workspace_id = $1 AND payment_id = $2',
      [ws.owner.workspaceId, returnId],
    );
    expect((await violations()).map((v) => v.subject)).toContain(returnId);
    await world.db.query(
      `UPDATE pix_med_returns SET amount_minor = 4000, party_id = gen_random_uuid() WHERE workspace_id = $1 AND payment_id = $2`,
      [ws.owner.workspaceId, returnId],
    );
    expect((await violations()).map((v) => v.subject)).toContain(returnId);
    expect((await verifyBooks(world.db, 1000)).ok).toBe(false);
  });
});
