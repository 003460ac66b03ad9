import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveKind } from '../../src/ledger/ledger.ts';
import { addParty, type Client, cashIn, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

const zero = (party: string) =>
  ['BRL', 'USDT', 'USDC'].map((currency) => ({
    currency,
    kind: 'available',
    balance_minor: '0',
    scale: currency === 'BRL' ? 2 : 6,
    party_id: party,
  }));

describe('GET /v1/{env}/balances', () => {
  let api: Client;
  let defaultParty: string;
  let workspaceId: string;
  beforeAll(async () => {
    const m = await world.workspace();
    api = m.api;
    defaultParty = m.owner.defaultPartyId;
    workspaceId = m.owner.workspaceId;
  });

  it('a new workspace shows the zero available rows of its default party', async () => {
    for (const url of ['/v1/sandbox/balances', '/v1/sandbox/account/balances', '/v1/test/balances']) {
      const res = await api.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: zero(defaultParty) });
    }
  });

  it('shows credited balances, every kind, every party, in a fixed order', async () => {
    const customer = await addParty(world.db, workspaceId);
    await cashIn(api, '10050');
    await cashIn(api, '700', customer);
    await world.db.transaction((tx) =>
      moveKind(tx, {
        workspaceId,
        environment: 'sandbox',
        partyId: defaultParty,
        currency: 'BRL',
        from: 'available',
        to: 'locked',
        amount: 50n,
        referenceType: 'test',
        referenceId: 'lock',
      }),
    );
    const res = await api.get('/v1/sandbox/balances');
    expect(res.statusCode).toBe(200);
    const [brl, locked, usdt, usdc, ...rest] = res.json().data;
    expect([brl, locked, usdt, usdc]).toEqual([
      { currency: 'BRL', kind: 'available', balance_minor: '10000', scale: 2, party_id: defaultParty },
      { currency: 'BRL', kind: 'locked', balance_minor: '50', scale: 2, party_id: defaultParty },
      zero(defaultParty)[1],
      zero(defaultParty)[2],
    ]);
    expect(rest).toEqual([
      { currency: 'BRL', kind: 'available', balance_minor: '700', scale: 2, party_id: customer },
    ]);

    const alias = await api.get('/v1/sandbox/account/balances');
    expect(alias.json()).toEqual(res.json());
  });

  it('filters by party_id and currency', async () => {
    const customer = await addParty(world.db, workspaceId);
    await cashIn(api, '321', customer);
    const byParty = await api.get(`/v1/sandbox/balances?party_id=${customer}`);
    expect(byParty.json().data).toEqual([
      { currency: 'BRL', kind: 'available', balance_minor: '321', scale: 2, party_id: customer },
      ...zero(customer).slice(1),
    ]);
    const byCurrency = await api.get(`/v1/sandbox/balances?party_id=${customer}&currency=USDC`);
    expect(byCurrency.json().data).toEqual([zero(customer)[2]]);
    const lower = await api.get('/v1/sandbox/balances?currency=brl');
    expect(lower.statusCode).toBe(200);
    expect(lower.json().data.every((row: { currency: string }) => row.currency === 'BRL')).toBe(true);
  });

  it('answers 400 for bad filters', async () => {
    const currency = await api.get('/v1/sandbox/balances?currency=EUR');
    expect(currency.statusCode).toBe(400);
    expect(currency.json().error).toBe('unsupported_currency');
    const party = await api.get('/v1/sandbox/balances?party_id=not-a-uuid');
    expect(party.statusCode).toBe(400);
    expect(party.json().error).toBe('invalid_request');
  });

  it('is readable by a dashboard session too', async () => {
    const m = await world.workspace();
    const res = await m.session.get('/v1/sandbox/balances');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(zero(m.owner.defaultPartyId));
  });
});
