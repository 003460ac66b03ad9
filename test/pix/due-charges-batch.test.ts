/** A batch of due-date charges: each item its own result, a faulty item writing nothing. */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { DEBTOR, DUE, spDate } from './due-charges-support.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('due-date charge batch', () => {
  it('creates the valid items and answers each faulty one with its error, in order', async () => {
    const ws = await world.workspace();
    const item = (amount: string, extra: Record<string, unknown> = {}) => ({
      amount_minor: amount,
      due_date: spDate(5),
      debtor: DEBTOR,
      ...extra,
    });
    const res = await ws.api.post(`${DUE}/batch`, {
      description: 'Mensalidades',
      charges: [
        item('1000'),
        item('2000', { interest: { modality: 7, percent: '1.00' } }),
        item('3000', { fine: { modality: 1, value_minor: '100' } }),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { batch_id, results } = res.json().data;
    expect(batch_id).toBeNull();
    expect(results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2]);
    expect(results[0].charge).toMatchObject({ amount_minor: '1000', status: 'created' });
    expect(results[0].error).toBeNull();
    expect(results[1]).toMatchObject({ charge: null, error: { error: 'invalid_request' } });
    expect(JSON.stringify(results[1].error.details)).toContain('body.interest.modality');
    expect(results[2].charge).toMatchObject({
      amount_minor: '3000',
      fine: { modality: 1, value_minor: '100' },
    });
    expect(await ws.paymentCount('pix_cash_in')).toBe(2);
    const shown = await ws.api.get(`${DUE}/${results[2].charge.id}`);
    expect(shown.json().data.amount_due_today_minor).toBe('3000');
  });

  it('refuses an empty batch or one over 100 items whole', async () => {
    const ws = await world.workspace();
    expect((await ws.api.post(`${DUE}/batch`, { charges: [] })).statusCode).toBe(400);
    const many = Array.from({ length: 101 }, () => ({
      amount_minor: '100',
      due_date: spDate(1),
      debtor: DEBTOR,
    }));
    expect((await ws.api.post(`${DUE}/batch`, { charges: many })).statusCode).toBe(400);
    expect(await ws.paymentCount('pix_cash_in')).toBe(0);
  });

  it('an Idempotency-Key replays the batch and creates nothing more', async () => {
    const ws = await world.workspace();
    const body = { charges: [{ amount_minor: '700', due_date: spDate(3), debtor: DEBTOR }] };
    const headers = { 'idempotency-key': 'batch-once-1' };
    const first = await ws.api.post(`${DUE}/batch`, body, headers);
    const again = await ws.api.post(`${DUE}/batch`, body, headers);
    expect(again.json()).toEqual(first.json());
    expect(await ws.paymentCount('pix_cash_in')).toBe(1);
  });
});
