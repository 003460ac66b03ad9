/** A sandbox workspace with a PIX charge paid by a buyer: where refund and MED-return tests start. */
import { expect } from 'vitest';
import { CPF, type World } from '../support/world.ts';

export async function paidSandboxCharge(world: World, amount: string, name: string) {
  const ws = await world.workspace(name);
  const created = await ws.api.post('/v1/sandbox/pix/charges', {
    amount_minor: amount,
    payer: { name: 'Bia', document: CPF },
  });
  expect(created.statusCode, created.body).toBe(200);
  const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${created.json().data.id}/pay`);
  expect(paid.statusCode, paid.body).toBe(200);
  return { ws, charge: paid.json().data as { id: string; pix_tx_id: string } };
}
