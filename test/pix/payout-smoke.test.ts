import { afterAll, describe, expect, it } from 'vitest';
import { runJobs } from '../../src/worker.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());
const ws = await world.workspace();

describe('payout smoke', () => {
  it('cash-in, settlement key, payout, settle', async () => {
    const { session, api } = ws;
    expect((await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '10000' })).statusCode).toBe(
      200,
    );
    const sk = await session.put('/v1/sandbox/settlement-key', {
      pix_key: 'ana@example.com',
      holder_name: 'Ana',
      holder_document: '52998224725',
    });
    expect(sk.statusCode, sk.body).toBe(200);
    const payout = await api.post(
      '/v1/sandbox/pix/payouts',
      { amount_minor: '2500', pix_key: '+5511987654321' },
      { 'idempotency-key': 'p1' },
    );
    expect(payout.statusCode, payout.body).toBe(200);
    expect(payout.json().data).toMatchObject({
      status: 'created',
      pix_key: 'ana@example.com',
      fee_minor: '100',
      kind: 'pix_cash_out',
    });
    const balances = async () =>
      Object.fromEntries(
        (await api.get('/v1/sandbox/balances?currency=BRL'))
          .json()
          .data.map((b: { kind: string; balance_minor: string }) => [b.kind, b.balance_minor]),
      );
    expect(await balances()).toMatchObject({ available: '7400', locked: '2600' });
    await runJobs(world.deps);
    await runJobs(world.deps);
    const done = await api.get(`/v1/sandbox/payments/${payout.json().data.id}`);
    expect(done.json().data.status).toBe('completed');
    expect(done.json().data.pix_tx_id).toMatch(/^E[0-9]{20}[A-Za-z0-9]{11}$/);
    expect(await balances()).toMatchObject({ available: '7400', locked: '0' });

    const charge = await api.post('/v1/sandbox/pix/charges', { amount_minor: '5000' });
    expect(charge.statusCode, charge.body).toBe(200);
    const png = await api.get(`/v1/sandbox/payments/${charge.json().data.id}/qr.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    const svg = await api.get(`/v1/sandbox/payments/${charge.json().data.id}/qr.svg`);
    expect(svg.body.startsWith('<svg')).toBe(true);
  });
});
