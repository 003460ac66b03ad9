/**
 * A batch of due-date charges whose answer was lost is sent again with its Idempotency-Key: the
 * caller gets the first answer again, batch id and every item's result (its faulty items too), and
 * no charge is made twice.
 */
import { afterAll, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { DEBTOR, DUE, spDate } from './due-charges-support.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a batch sent again with its key answers the first answer, whole', async () => {
  const ws = await world.workspace();
  const item = (amount: string, extra: Record<string, unknown> = {}) => ({
    amount_minor: amount,
    due_date: spDate(5),
    debtor: DEBTOR,
    ...extra,
  });
  const body = { charges: [item('1000'), item('2000', { interest: { modality: 7, percent: '1.00' } })] };
  const key = { 'idempotency-key': 'batch-once' };
  const first = await ws.api.post(`${DUE}/batch`, body, key);
  expect(first.statusCode, first.body).toBe(200);
  expect(first.json().data.results).toHaveLength(2);
  const again = await ws.api.post(`${DUE}/batch`, body, key);
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json()).toEqual(first.json());
  expect(await ws.paymentCount('pix_cash_in')).toBe(1);
});
