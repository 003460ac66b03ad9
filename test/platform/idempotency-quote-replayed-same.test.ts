/**
 * The SDK keys every POST. An RFQ quote requested with an
 * Idempotency-Key answered 500. The write returned the database row, whose bigint amounts the
 * idempotency layer's JSON.stringify could not store; and a replay handed the view the stored JSON
 * (strings where it expects Date and bigint), a 500 again. Without the header it was 200.
 */
import { afterAll, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('a quote asked with an Idempotency-Key is answered, and replayed the same', async () => {
  const ws = await world.workspace('Idempotent quote', { fund: '100000' });
  const body = { base_amount_minor: '54000', base_currency: 'BRL', quote_currency: 'USDT' };
  const headers = { 'idempotency-key': 'quote-1' };
  const first = await ws.api.post('/v1/sandbox/rfq/quote', body, headers);
  expect(first.statusCode, first.body).toBe(200);
  const again = await ws.api.post('/v1/sandbox/rfq/quote', body, headers);
  expect(again.statusCode, again.body).toBe(200);
  expect(again.headers['idempotency-replayed']).toBe('true');
  expect(again.json()).toEqual(first.json());
  expect(typeof first.json().data.quote_amount_minor).toBe('string');
});
