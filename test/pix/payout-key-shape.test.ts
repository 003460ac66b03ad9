/**
 * A payout's pix_key is checked for shape whoever sends it. An API key's payout still goes to the
 * settlement key (the spec), but a key that is not a PIX key at all is the caller's bug and answers
 * 400 invalid_pix_key, as it does for a dashboard session, with nothing paid.
 */
import { afterAll, expect, it } from 'vitest';
import { CPF, SETTLEMENT_KEY, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

it('an API key payout with a malformed pix_key answers 400 invalid_pix_key and pays nothing', async () => {
  const ws = await world.workspace('Chave Torta', { settlementKey: true, fund: '10000' });
  const bad = [
    { pix_key: 'not a key' },
    { pix_key: '52998224724' }, // a CPF with wrong check digits
    { pix_key: 'Zoë 🙂' },
    { pix_key: 'ana@example.com', pix_key_type: 'phone' },
  ];
  for (const body of bad) {
    const res = await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '1000', ...body });
    expect(res.statusCode, JSON.stringify(body)).toBe(400);
    expect(res.json().error).toBe('invalid_pix_key');
  }
  expect(await ws.paymentCount('pix_cash_out')).toBe(0);
  expect(await ws.balances()).toMatchObject({ available: '10000', locked: '0' });

  // A well-formed key is still replaced by the settlement key.
  const ok = await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '1000', pix_key: CPF });
  expect(ok.statusCode, ok.body).toBe(200);
  expect(ok.json().data.pix_key).toBe(SETTLEMENT_KEY.pix_key.toLowerCase());
});
