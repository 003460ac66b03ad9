/**
 * On a group-commit route the write runs speculatively behind the Idempotency-Key
 * insert, under SAVEPOINT idempotent_write, and a replay rolls it back to that savepoint. The
 * after-commit hooks the rolled-back write registered (payment transition, ledger postings) stayed on
 * the transaction and ran at COMMIT: every replayed payout counted a payout that never happened.
 */
import { afterAll, expect, it } from 'vitest';
import { counted } from '../support/metrics.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

it('a replayed payout counts no payment transition and no ledger posting', async () => {
  const ws = await world.workspace({ settlementKey: true, fund: '1000' });
  const transitions = { kind: 'pix_cash_out', status: 'created', environment: 'sandbox' };
  const postings = { environment: 'sandbox' };
  const body = { amount_minor: '300', pix_key: 'someone@example.com' };
  const idem = { 'idempotency-key': 'replayed-payout-1' };
  const first = await ws.api.post('/v1/sandbox/pix/payouts', body, idem);
  expect(first.statusCode, first.body).toBe(200);
  const afterFirst = await counted('lastro_payment_transitions_total', transitions);
  const postingsAfterFirst = await counted('lastro_ledger_postings_total', postings);
  for (let i = 0; i < 3; i++) {
    const replay = await ws.api.post('/v1/sandbox/pix/payouts', body, idem);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().data.id).toBe(first.json().data.id);
  }
  expect(await ws.paymentCount('pix_cash_out')).toBe(1);
  expect(await counted('lastro_payment_transitions_total', transitions)).toBe(afterFirst);
  expect(await counted('lastro_ledger_postings_total', postings)).toBe(postingsAfterFirst);
});
