/**
 * A party_id in a body is validated as a UUID (format accepts upper case) and checked with
 * SQL (uuid comparison ignores case), then used as the raw string to derive the ledger account id
 * (accountId = SHA-256 of "party|ws|env|<partyId as sent>|…"). The same party thus gets a second,
 * differently-keyed account. The first posting with an upper-case id creates it (the row's party_id
 * is the normalised uuid); from then on the party's canonical (lower-case) account can never be
 * created (unique index on workspace/env/party/currency/kind, ON CONFLICT DO NOTHING) and:
 *  - every later cash-in to that party without the odd spelling → 500 internal_error
 *    ("ledger_post: accounts still missing after creating them");
 *  - every payout of the party → 422 insufficient_balance although GET /balances shows the money.
 * The money is stuck in an account only reachable by spelling the party id in upper case.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('party_id spelled in upper case', () => {
  it('is the same party and the same ledger account', async () => {
    const ws = await world.workspace('Upper', { settlementKey: true });
    const upper = ws.owner.defaultPartyId.toUpperCase();
    const first = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', {
      amount_minor: '10000',
      party_id: upper,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(await ws.balances()).toMatchObject({ available: '10000' });

    const payout = await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '1000', pix_key: 'a@b.com' });
    expect(payout.statusCode, payout.body).toBe(200);

    const second = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '500' });
    expect(second.statusCode, second.body).toBe(200);
  });

  it('a later cash-in spelled normally is not a 500', async () => {
    const ws = await world.workspace('Upper 2');
    const upper = ws.owner.defaultPartyId.toUpperCase();
    const first = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', {
      amount_minor: '10000',
      party_id: upper,
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '500' });
    expect(second.statusCode, second.body).toBe(200);
  });
});
