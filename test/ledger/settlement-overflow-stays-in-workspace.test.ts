/**
 * The sandbox PIX settlement account was once shared by every workspace of the environment,
 * and 16-digit cash-ins let one tenant drive it to the BIGINT limit, after which every other tenant's
 * cash-in failed with a 500. The first fix capped sandbox cash-ins at what a BR Code can carry; since
 * migration 0006 every workspace has its own settlement account, so the cap is gone (the wire's 16 digits
 * remain): a big cash-in reaches only its own workspace's books. A balance pushed past BIGINT, the
 * workspace's settlement or the party's own, is still answered as 400 invalid_amount, never 500.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { accountId, balanceOf, partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('PIX settlement account under huge sandbox cash-ins', () => {
  it('a cash-in above the BR Code maximum moves only its own workspace’s books', async () => {
    const ws = await world.workspace('Big spender');
    const other = await world.workspace('Bystander', { fund: '500' });
    const otherBefore = await other.balances();
    const otherSettlement = systemAccount.pixSettlement(other.owner.workspaceId, 'sandbox');
    const res = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '9999999999999999' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await ws.balances()).available).toBe('9999999999999999');
    expect(await balanceOf(world.db, systemAccount.pixSettlement(ws.owner.workspaceId, 'sandbox'))).toBe(
      -9_999_999_999_999_999n,
    );
    expect(await other.balances()).toEqual(otherBefore);
    expect(await balanceOf(world.db, otherSettlement)).toBe(-500n);
    const tooLong = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', {
      amount_minor: '10000000000000000',
    });
    expect(tooLong.statusCode, tooLong.body).toBe(400);
    expect(tooLong.json().error).toBe('invalid_amount');
  });

  it('a settlement balance pushed past BIGINT answers 400, not 500, and only for its workspace', async () => {
    const ws = await world.workspace('Edge');
    const other = await world.workspace('Neighbour');
    await ws.cashIn('1');
    // Put the workspace's settlement account one cash-in away from the BIGINT limit, as a long attack would.
    await world.db.query('UPDATE ledger_balances SET balance = -9223372036854775000 WHERE account_id = $1', [
      accountId(systemAccount.pixSettlement(ws.owner.workspaceId, 'sandbox')),
    ]);
    const res = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '999999999999' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'invalid_amount',
      details: [{ field: 'body.amount_minor', issue: 'is outside the range the ledger can hold' }],
    });
    const neighbour = await other.api.post('/v1/sandbox/simulate/pix/cash-in', {
      amount_minor: '999999999999',
    });
    expect(neighbour.statusCode, neighbour.body).toBe(200);
  });

  it('a party balance pushed past BIGINT answers 400, not 500', async () => {
    const ws = await world.workspace('Full party', { fund: '1' });
    await world.db.query('UPDATE ledger_balances SET balance = 9223372036854775000 WHERE account_id = $1', [
      accountId(partyAccount(ws.owner.workspaceId, 'sandbox', ws.owner.defaultPartyId, 'BRL')),
    ]);
    const res = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '999999999999' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('invalid_amount');
  });
});
