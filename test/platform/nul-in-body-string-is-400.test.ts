/**
 * A string containing U+0000 passes the typebox schemas (description, metadata values,
 * payer.name) but PostgreSQL refuses NUL in text/jsonb, so the request ends as 500 internal_error
 * instead of 400 invalid_request (API.md: schema violation → 400; 500 only for our own faults).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('Nul', { settlementKey: true, fund: '100000' });

describe('NUL characters in body strings', () => {
  it.each([
    ['/v1/sandbox/pix/charges', { amount_minor: '1000', description: 'a\u0000b' }],
    ['/v1/sandbox/pix/charges', { amount_minor: '1000', metadata: { note: 'a\u0000b' } }],
    ['/v1/sandbox/pix/payouts', { amount_minor: '1000', pix_key: 'a@b.com', description: 'a\u0000b' }],
    ['/v1/sandbox/simulate/pix/cash-in', { amount_minor: '1000', payer: { name: 'a\u0000b' } }],
  ])('%s %j → 400, not 500', async (url, body) => {
    const res = await ws.api.post(url, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });
});
