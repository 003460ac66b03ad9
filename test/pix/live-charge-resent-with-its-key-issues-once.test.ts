/**
 * A live charge's answer is lost and the request is sent again with its Idempotency-Key: the first
 * answer comes back and the PSP holds one cob, not a second payable one nobody records. The same for
 * a due-date charge (one cobv). A key sent again with another body is 409 before the PSP is asked.
 */
import { afterAll, expect, it } from 'vitest';
import { DEBTOR, spDate } from './due-charges-support.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

it('a live charge sent again with its key is answered again and issued once', async () => {
  const { live: api } = await liveWorkspace(world, 'Reenvio');
  const key = { 'idempotency-key': 'charge-once' };
  const before = psp.cobs.size;
  const first = await api.post('/v1/live/pix/charges', { amount_minor: '900' }, key);
  expect(first.statusCode, first.body).toBe(200);
  const again = await api.post('/v1/live/pix/charges', { amount_minor: '900' }, key);
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json()).toEqual(first.json());
  expect(psp.cobs.size).toBe(before + 1);
  const other = await api.post('/v1/live/pix/charges', { amount_minor: '901' }, key);
  expect(other.statusCode).toBe(409);
  expect(psp.cobs.size).toBe(before + 1);
});

it('a live due-date charge sent again with its key is answered again and issued once', async () => {
  const { live: api } = await liveWorkspace(world, 'Reenvio com vencimento');
  const key = { 'idempotency-key': 'due-charge-once' };
  const body = { amount_minor: '10000', due_date: spDate(3), days_valid_after_due: 0, debtor: DEBTOR };
  const before = psp.cobvs.size;
  const first = await api.post('/v1/live/pix/due-charges', body, key);
  expect(first.statusCode, first.body).toBe(200);
  const again = await api.post('/v1/live/pix/due-charges', body, key);
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json()).toEqual(first.json());
  expect(psp.cobvs.size).toBe(before + 1);
});
