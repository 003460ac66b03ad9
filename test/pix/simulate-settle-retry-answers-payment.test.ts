/**
 * A re-send after a 200 must get that 200 (the soak checks it). `simulate/payments/{id}/fail`
 * and `/complete` of a payout act as the PSP over several steps and so take no Idempotency-Key; a
 * retry of one whose answer was lost (or a duplicate) answered 422 invalid_state, the payment having
 * moved on. Asking for the outcome it already has now answers it; the other outcome is still refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('Settle retry', { settlementKey: true, fund: '10000' });

const settle = (id: string, outcome: 'fail' | 'complete', key: string) =>
  ws.api.post(`/v1/sandbox/simulate/payments/${id}/${outcome}`, {}, { 'idempotency-key': key });
const opposite = { fail: 'complete', complete: 'fail' } as const;
let completedCost = 0n;

describe('a settled payout, asked again', () => {
  for (const outcome of ['fail', 'complete'] as const) {
    it(`${outcome}: the same request answers the payment again; the other outcome is refused`, async () => {
      const payout = await ws.api.post('/v1/sandbox/pix/payouts', {
        amount_minor: '1000',
        pix_key: '52998224725',
      });
      expect(payout.statusCode, payout.body).toBe(200);
      const id: string = payout.json().data.id;
      const first = await settle(id, outcome, `k-${outcome}`);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().data.status).toBe(outcome === 'fail' ? 'failed' : 'completed');
      if (outcome === 'complete') completedCost = 1000n + BigInt(first.json().data.fee_minor);
      for (const key of [`k-${outcome}`, `another-${outcome}`]) {
        const again = await settle(id, outcome, key);
        expect(again.statusCode, again.body).toBe(200);
        expect(again.json().data).toMatchObject({ id, status: first.json().data.status });
      }
      const other = await settle(id, opposite[outcome], `k-${opposite[outcome]}-of-${id}`);
      expect(other.statusCode).toBe(422);
      expect(other.json().error).toBe('invalid_state');
    });
  }
  it('the money moved once: the failed payout returned, the completed one (and its fee) left', async () => {
    expect(completedCost).toBeGreaterThan(1000n);
    const available = (10000n - completedCost).toString();
    expect(await ws.balances()).toMatchObject({ available, locked: '0' });
  });
});
