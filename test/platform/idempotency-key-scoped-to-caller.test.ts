/**
 * The Idempotency-Key scope was (workspace, environment, key) and the request hash
 * method + path + body — the caller in neither. Two party-scoped keys of one workspace that happen
 * to use the same Idempotency-Key with the same body share one record: the second party's payout is
 * never executed and it is answered with the FIRST party's payment (another party's record leaks,
 * and the second party believes it paid).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('the Idempotency-Key scope includes the caller', () => {
  it('a party-scoped key replaying another party’s Idempotency-Key gets its own payout, not the other’s', async () => {
    const ws = await world.workspace('Cross party', { settlementKey: true });
    const partyB = await ws.addParty('Bia');
    const apiA = await ws.keyFor(ws.owner.defaultPartyId);
    const apiB = await ws.keyFor(partyB);
    for (const api of [apiA, apiB]) {
      const c = await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '10000' });
      expect(c.statusCode, c.body).toBe(200);
    }

    const body = { amount_minor: '1000', pix_key: 'a@b.com' };
    const headers = { 'idempotency-key': 'order-1' };
    const a = await apiA.post('/v1/sandbox/pix/payouts', body, headers);
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json().data.party_id).toBe(ws.owner.defaultPartyId);

    const b = await apiB.post('/v1/sandbox/pix/payouts', body, headers);
    // B must not see A's payment (and its payout must run, or at least be refused)
    expect(b.headers['idempotency-replayed']).toBeUndefined();
    expect(b.json().data?.party_id).toBe(partyB);
  });
});
