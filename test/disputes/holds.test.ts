/**
 * Crypto does not outrun a dispute: the disputed BRL sits in locked, so a conversion (RFQ execute)
 * cannot spend it, and without it there is nothing to send as crypto; the refusal says the disputes
 * hold it. A party-scoped key sees its own party's disputes only.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { topUpHolds } from '../../src/modules/disputes/top-up.ts';
import { cryptoWorkspace, OUTSIDE, SEND } from '../crypto/support.ts';
import { EXECUTE, QUOTE } from '../rfq/support.ts';
import { expectBooksVerified } from '../support/books.ts';
import { startWorld } from '../support/world.ts';
import { disputeUrl, openDispute, paidCashIn } from './support.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

describe('an open dispute holds its amount against conversions and sends', () => {
  it('refuses to convert the disputed BRL, naming the dispute; what is not disputed converts', async () => {
    const ws = await cryptoWorkspace(world, 'Câmbio Disputado');
    const cashIn = await paidCashIn(ws.api, '100000');
    const dispute = await openDispute(ws.api, cashIn.id, { amount_minor: '80000' });
    const quote = async (amount: string) =>
      (
        await ws.api.post(QUOTE, { base_amount_minor: amount, base_currency: 'BRL', quote_currency: 'USDT' })
      ).json().data;
    const all = await quote('100000');
    const refused = await ws.api.post(EXECUTE, { quote_id: all.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      error: 'insufficient_balance',
      details: [{ field: 'disputes', issue: expect.stringContaining(dispute.id) }],
    });
    expect(refused.json().message).toContain(
      '80000 BRL minor units of this party are locked by open dispute',
    );
    expect(await ws.balances()).toMatchObject({ available: '20000', locked: '80000' });

    const rest = await quote('20000');
    const executed = await ws.api.post(EXECUTE, { quote_id: rest.id });
    expect(executed.statusCode, executed.body).toBe(200);
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '80000' });

    // The USDT bought with the undisputed BRL can be sent; the disputed BRL never became USDT.
    const usdt = BigInt((await ws.coins('USDT')).available!);
    const wallet = await ws.wallet('polygon');
    expect(wallet.network).toBe('polygon');
    await ws.whitelist('polygon', OUTSIDE.evm);
    const tooMuch = await ws.api.post(SEND, {
      network: 'polygon',
      currency: 'USDT',
      amount_minor: String(usdt + 1n),
      to_address: OUTSIDE.evm,
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().error).toBe('insufficient_balance');
    expect(await ws.balances()).toMatchObject({ locked: '80000' });
  });

  it('a conversion refused for a party without disputes says nothing of disputes', async () => {
    const ws = await cryptoWorkspace(world, 'Sem Disputa');
    await paidCashIn(ws.api, '1000');
    const quote = (
      await ws.api.post(QUOTE, { base_amount_minor: '2000', base_currency: 'BRL', quote_currency: 'USDT' })
    ).json().data;
    const refused = await ws.api.post(EXECUTE, { quote_id: quote.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).not.toContain('dispute');
  });
});

describe('a dispute that could not hold all of its amount', () => {
  it('holds money that reaches available later, up to the amount, before it can be converted', async () => {
    const ws = await cryptoWorkspace(world, 'Saldo Curto');
    const first = await paidCashIn(ws.api, '10000');
    await ws.setSettlementKey();
    await ws.payout('5900');
    await world.drainJobs();
    const dispute = await openDispute(ws.api, first.id);
    expect(dispute).toMatchObject({ held_minor: '4000', unheld_minor: '6000' });

    await paidCashIn(ws.api, '2500');
    expect(await topUpHolds(world.deps)).toBe(1);
    expect(await topUpHolds(world.deps)).toBe(0);
    expect((await ws.api.get(disputeUrl(dispute.id))).json().data).toMatchObject({
      held_minor: '6500',
      unheld_minor: '3500',
    });
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '6500' });
    const quote = (
      await ws.api.post(QUOTE, { base_amount_minor: '2500', base_currency: 'BRL', quote_currency: 'USDT' })
    ).json().data;
    expect((await ws.api.post(EXECUTE, { quote_id: quote.id })).statusCode).toBe(422);

    await paidCashIn(ws.api, '9000');
    await topUpHolds(world.deps);
    expect(await ws.balances()).toMatchObject({ available: '5500', locked: '10000' });
    await world.drainJobs();
    await expectBooksVerified(world.deps);
  });
});

describe('party scope', () => {
  it("a party-scoped key lists and reads its own party's disputes only", async () => {
    const ws = await world.workspace('Escopo Ltda');
    const partyId = await ws.addParty('Loja A');
    const own = await paidCashIn(ws.api, '1000', partyId);
    const other = await paidCashIn(ws.api, '1000');
    const ownDispute = await openDispute(ws.api, own.id);
    const otherDispute = await openDispute(ws.api, other.id);
    const scoped = await ws.keyFor(partyId);
    const listed = (await scoped.get('/v1/sandbox/disputes')).json().data;
    expect(listed.map((d: { id: string }) => d.id)).toEqual([ownDispute.id]);
    expect((await scoped.get(disputeUrl(otherDispute.id))).statusCode).toBe(404);
    const defense = await scoped.post(`${disputeUrl(otherDispute.id)}/defense`, { text: 'Not mine.' });
    expect(defense.statusCode).toBe(404);
    expect((await scoped.get(`/v1/sandbox/disputes?party_id=${ws.owner.defaultPartyId}`)).statusCode).toBe(
      403,
    );
    const all = (await ws.api.get('/v1/sandbox/disputes')).json().data;
    expect(all.map((d: { id: string }) => d.id)).toEqual([otherDispute.id, ownDispute.id]);
    const page = (await ws.api.get(`/v1/sandbox/disputes?limit=1&cursor=${otherDispute.id}`)).json().data;
    expect(page.map((d: { id: string }) => d.id)).toEqual([ownDispute.id]);
  });
});
