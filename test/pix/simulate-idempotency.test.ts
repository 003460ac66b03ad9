import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('sandbox /pay and /expire take Idempotency-Key', () => {
  it('a retried /pay replays the paid charge and credits once', async () => {
    const ws = await world.workspace();
    const charge = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '2500' })).json().data;
    const headers = { 'idempotency-key': `pay-${charge.id}` };
    const first = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`, {}, headers);
    const again = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`, {}, headers);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await ws.balances()).available).toBe('2500');
  });

  it('without a key, paying twice is 422 invalid_state and credits once', async () => {
    const ws = await world.workspace();
    const charge = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '700' })).json().data;
    expect((await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`)).statusCode).toBe(200);
    const twice = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().error).toBe('invalid_state');
    expect((await ws.balances()).available).toBe('700');
  });
});
