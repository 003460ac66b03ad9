import { afterAll, describe, expect, it } from 'vitest';
import { addParty, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const { api, owner } = await world.workspace();
const { workspaceId, defaultPartyId: party } = owner;

const brl = async (partyId = party) => {
  const res = await api.get(`/v1/sandbox/balances?party_id=${partyId}&currency=BRL`);
  return res.json().data.find((row: { kind: string }) => row.kind === 'available').balance_minor;
};

describe('POST /v1/sandbox/simulate/pix/cash-in', () => {
  it('creates a completed pix_cash_in payment and credits the default party in one go', async () => {
    const res = await api.post('/v1/sandbox/simulate/pix/cash-in', {
      amount_minor: '12345',
      payer: { name: 'Maria Silva', document: '52998224725' },
    });
    expect(res.statusCode).toBe(200);
    const payment = res.json().data;
    expect(payment).toMatchObject({
      workspace_id: workspaceId,
      party_id: party,
      environment: 'sandbox',
      kind: 'pix_cash_in',
      status: 'completed',
      amount_minor: '12345',
      currency: 'BRL',
      fee_minor: '0',
      counterparty: { name: 'Maria Silva', document: '*********25' },
      failed_at: null,
    });
    expect(payment.completed_at).toBe(payment.created_at);
    expect(await brl()).toBe('12345');

    const [line] = (await api.get('/v1/sandbox/statement')).json().data;
    expect(line).toMatchObject({
      reference_type: 'payment',
      reference_id: payment.id,
      direction: 'credit',
      amount_minor: '12345',
      kind: 'available',
      posted_at: payment.created_at,
    });
    const { rows } = await world.db.query<{ type: string }>(
      `SELECT type FROM events WHERE workspace_id = $1 AND payload->'data'->'object'->>'id' = $2`,
      [workspaceId, payment.id],
    );
    expect(rows.map((r) => r.type)).toEqual(['payment.completed']);
    expect((await api.get(`/v1/sandbox/payments/${payment.id}`)).json().data).toEqual(payment);
  });

  it('credits the given party; the test alias works the same', async () => {
    const customer = await addParty(world.db, workspaceId);
    const res = await api.post('/v1/test/simulate/pix/cash-in', { amount_minor: '7', party_id: customer });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.party_id).toBe(customer);
    expect(res.json().data.environment).toBe('sandbox');
    expect(await brl(customer)).toBe('7');
  });

  it('replays with the same Idempotency-Key and credits once', async () => {
    const headers = { 'idempotency-key': 'cash-in-1' };
    const before = BigInt(await brl());
    const first = await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '500' }, headers);
    const again = await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '500' }, headers);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(first.json().data.idempotency_key).toBe('cash-in-1');
    expect(BigInt(await brl())).toBe(before + 500n);
    const reuse = await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '501' }, headers);
    expect(reuse.statusCode).toBe(409);
    expect(reuse.json().error).toBe('idempotency_key_reuse');
  });

  it('refuses bad amounts with invalid_amount and moves nothing', async () => {
    const before = await brl();
    for (const amount_minor of ['0', '-5', '1.5', '12345678901234567', '', 'abc', 100]) {
      const res = await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor });
      expect(res.statusCode, String(amount_minor)).toBe(400);
      expect(res.json().error, String(amount_minor)).toBe('invalid_amount');
    }
    const missing = await api.post('/v1/sandbox/simulate/pix/cash-in', {});
    expect(missing.statusCode).toBe(400);
    expect(['invalid_amount', 'invalid_request']).toContain(missing.json().error);
    const party = await api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '1', party_id: 'x' });
    expect(party.statusCode).toBe(400);
    expect(party.json().error).toBe('invalid_request');
    expect(await brl()).toBe(before);
  });

  it('answers 404 not_found for a party that is not in the workspace', async () => {
    const other = await world.workspace();
    const res = await api.post('/v1/sandbox/simulate/pix/cash-in', {
      amount_minor: '1',
      party_id: other.owner.defaultPartyId,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });

  it('does not exist on a live path', async () => {
    const m = await world.workspace();
    const live = await m.liveApi();
    const res = await live.post('/v1/live/simulate/pix/cash-in', { amount_minor: '100' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
    const { rows } = await world.db.query('SELECT 1 FROM payments WHERE workspace_id = $1', [
      m.owner.workspaceId,
    ]);
    expect(rows).toEqual([]);
    const balances = await live.get('/v1/live/balances');
    expect(balances.json().data.every((row: { balance_minor: string }) => row.balance_minor === '0')).toBe(
      true,
    );
  });
});
