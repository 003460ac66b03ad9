/**
 * A charge whose refunds already cover all of it says so plainly, whether those refunds are still
 * in flight or done; it never names an amount range that holds no amount ("between 1 and 0").
 */
import { afterAll, expect, it } from 'vitest';
import { CPF, startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

it('refunding a fully refunded charge answers 422 saying nothing remains to refund', async () => {
  const ws = await world.workspace('Tudo Devolvido');
  const created = await ws.api.post('/v1/sandbox/pix/charges', {
    amount_minor: '5000',
    payer: { name: 'Bia', document: CPF },
  });
  const id: string = created.json().data.id;
  expect((await ws.api.post(`/v1/sandbox/simulate/payments/${id}/pay`)).statusCode).toBe(200);
  const whole = await ws.api.post(`/v1/sandbox/payments/${id}/refund`, {});
  expect(whole.statusCode, whole.body).toBe(200);

  const plainly = (res: { statusCode: number; json(): { error: string; message: string } }) => {
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: 'invalid_state',
      message: 'The charge is fully refunded; nothing remains to refund.',
    });
    expect(JSON.stringify(res.json())).not.toMatch(/At most 0|between 1 and 0/);
  };
  // The refund is still in flight.
  plainly(await ws.api.post(`/v1/sandbox/payments/${id}/refund`, {}));
  plainly(await ws.api.post(`/v1/sandbox/payments/${id}/refund`, { amount_minor: '1' }));
  // The refund is done: the charge reads refunded.
  await world.drainJobs();
  expect((await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data.status).toBe('refunded');
  plainly(await ws.api.post(`/v1/sandbox/payments/${id}/refund`, { amount_minor: '1' }));
  expect(await ws.balances()).toMatchObject({ available: '0', locked: '0' });
});
