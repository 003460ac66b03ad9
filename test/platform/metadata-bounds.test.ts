/**
 * Metadata is the caller's own shape, so it is not closed like the body around it; it is bounded
 * instead (docs/errors.md): 50 keys of 1 to 40 characters, each value at most 500 characters (a
 * string) or 500 characters of JSON, nesting at most 3 levels. 40,000 keys were accepted and copied
 * into every event of the payment.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { METADATA_LIMITS } from '../../src/platform/schema.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('Metadata', { settlementKey: true, fund: '100000' });

const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
const charge = (metadata: unknown) =>
  ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '1000', metadata });

async function refused(metadata: unknown, field: string, issue: RegExp) {
  const before = await ws.paymentCount('pix_cash_in');
  const res = await charge(metadata);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().error).toBe('invalid_request');
  expect(res.json().details).toEqual([{ field, issue: expect.stringMatching(issue) }]);
  expect(await ws.paymentCount('pix_cash_in')).toBe(before);
}

describe('metadata bounds', () => {
  it('the limits are Stripe’s', () => {
    expect(METADATA_LIMITS).toEqual({ keys: 50, keyLength: 40, valueLength: 500, valueDepth: 3 });
  });

  it('metadata at every bound is accepted and kept as sent', async () => {
    const atBounds = {
      ...keys(47),
      ['k'.repeat(40)]: 'x'.repeat(500),
      nested: { a: [1, { b: true }] },
      list: Array.from({ length: 100 }, () => 1),
    };
    const res = await charge(atBounds);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.metadata).toEqual(atBounds);
  });

  it('metadata with 51 keys is refused', async () => {
    await refused(keys(51), 'body.metadata', /more than 50 (properties|keys)/);
  });

  it('a key of 41 characters, or an empty key, is refused', async () => {
    await refused({ ['k'.repeat(41)]: 'v' }, 'body.metadata', /key .*40 characters/);
    await refused({ '': 'v' }, 'body.metadata', /key .*1 character/);
  });

  it('a string value of 501 characters, or a value of more than 500 characters as JSON, is refused', async () => {
    await refused({ note: 'x'.repeat(501) }, 'body.metadata.note', /at most 500 characters/);
    await refused({ list: Array.from({ length: 300 }, () => 1) }, 'body.metadata.list', /at most 500/);
  });

  it('a value of 500 characters outside the Basic Multilingual Plane (emoji) is accepted and kept', async () => {
    const metadata = { note: '🙂'.repeat(500) };
    const res = await charge(metadata);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.metadata).toEqual(metadata);
  });

  it('a value nesting 4 levels is refused', async () => {
    await refused({ deep: { a: { b: { c: {} } } } }, 'body.metadata.deep', /more than 3 levels/);
  });

  it('bounds every body that takes metadata, and sub-account settings', async () => {
    const big = keys(51);
    const calls = [
      ws.api.post('/v1/sandbox/customers', { display_name: 'Bia', metadata: big }),
      ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '100', pix_key: 'a@b.co', metadata: big }),
      ws.api.post('/v1/sandbox/payment-links', { amount_minor: '100', metadata: big }),
      ws.api.post('/v1/sandbox/crypto/send', {
        amount_minor: '1',
        to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        network: 'polygon',
        currency: 'USDT',
        metadata: big,
      }),
      ws.session.post('/v1/sandbox/subaccounts', { display_name: 'Filial', settings: big }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details[0].field).toMatch(/^body\.(metadata|settings)$/);
    }
  });
});
