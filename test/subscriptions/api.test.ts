/**
 * The subscription resource over HTTP: a refused authorisation, the validation errors (each leaves
 * nothing behind), the list, and the party scope of keys.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { addDays, monthly, sandboxToday, subscriptionEvents } from './support.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace();
const start = addDays(await sandboxToday(ws), 10);

describe('subscriptions API', () => {
  it('creates a subscription awaiting authorisation; a refusal ends it as refused', async () => {
    const created = await ws.api.post('/v1/sandbox/subscriptions', monthly(start));
    expect(created.statusCode, created.body).toBe(200);
    const sub = created.json().data;
    expect(sub).toMatchObject({
      status: 'pending_authorisation',
      amount_minor: '3500',
      minimum_minor: null,
      frequency: 'monthly',
      start_date: start,
      retry_policy: 'none',
      party_id: ws.owner.defaultPartyId,
      debtor: { name: 'Fulano de Tal', document: '*********25', document_type: 'cpf' },
      next_due_date: start,
      cycles_paid: 0,
    });
    const refused = await ws.api.post(`/v1/sandbox/simulate/subscriptions/${sub.id}/authorise`, {
      approve: false,
    });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().data).toMatchObject({ status: 'refused', next_due_date: null });
    const again = await ws.api.post(`/v1/sandbox/simulate/subscriptions/${sub.id}/authorise`, {
      approve: true,
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('invalid_state');
    expect(await subscriptionEvents(ws.api, sub.id)).toEqual([
      'subscription.created',
      'subscription.refused',
    ]);
  });

  it('takes a variable amount with a floor', async () => {
    const res = await ws.api.post('/v1/sandbox/subscriptions', {
      ...monthly(start),
      amount_minor: undefined,
      minimum_minor: '1000',
      frequency: 'annual',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ amount_minor: null, minimum_minor: '1000', frequency: 'annual' });
  });

  it.each([
    ['both amounts', { minimum_minor: '100' }, 'invalid_request', 'body.amount_minor'],
    ['no amount', { amount_minor: undefined }, 'invalid_request', 'body.amount_minor'],
    [
      'a CPF that is not one',
      { debtor: { name: 'X', document: '12345678900' } },
      'invalid_request',
      'body.debtor.document',
    ],
    ['a start date sooner than 2 days', { start_date: 'TODAY' }, 'invalid_request', 'body.start_date'],
    ['an end date before the start', { end_date: 'BEFORE' }, 'invalid_request', 'body.end_date'],
    ['an unknown frequency', { frequency: 'daily' }, 'invalid_request', 'body.frequency'],
    ['an unknown field', { colour: 'blue' }, 'invalid_request', 'body.colour'],
    ['a zero amount', { amount_minor: '0' }, 'invalid_amount', 'body.amount_minor'],
  ])('refuses %s and creates nothing', async (_name, change, code, field) => {
    const before = (await ws.api.get('/v1/sandbox/subscriptions?limit=100')).json().data.length;
    const body: Record<string, unknown> = { ...monthly(start), ...change };
    if (body.start_date === 'TODAY') body.start_date = await sandboxToday(ws);
    if (body.end_date === 'BEFORE') body.end_date = addDays(start, -1);
    const res = await ws.api.post('/v1/sandbox/subscriptions', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe(code);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await ws.api.get('/v1/sandbox/subscriptions?limit=100')).json().data.length).toBe(before);
  });

  it('lists newest first, by cursor and status', async () => {
    const first = (await ws.api.get('/v1/sandbox/subscriptions?limit=1')).json().data;
    expect(first).toHaveLength(1);
    const next = (await ws.api.get(`/v1/sandbox/subscriptions?limit=100&cursor=${first[0].id}`)).json().data;
    expect(next.every((s: { id: string }) => s.id < first[0].id)).toBe(true);
    const refused = (await ws.api.get('/v1/sandbox/subscriptions?status=refused')).json().data;
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((s: { status: string }) => s.status === 'refused')).toBe(true);
  });

  it('keeps a party-scoped key to its own party', async () => {
    const partyA = await ws.addParty('A');
    const partyB = await ws.addParty('B');
    const keyA = await ws.keyFor(partyA);
    const own = await keyA.post('/v1/sandbox/subscriptions', monthly(start));
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data.party_id).toBe(partyA);
    const forB = await keyA.post('/v1/sandbox/subscriptions', { ...monthly(start), party_id: partyB });
    expect(forB.statusCode).toBe(403);
    const ofB = (
      await ws.api.post('/v1/sandbox/subscriptions', { ...monthly(start), party_id: partyB })
    ).json().data;
    expect((await keyA.get(`/v1/sandbox/subscriptions/${ofB.id}`)).statusCode).toBe(404);
    expect((await keyA.post(`/v1/sandbox/subscriptions/${ofB.id}/cancel`, {})).statusCode).toBe(404);
    expect((await keyA.get(`/v1/sandbox/subscriptions/${ofB.id}/cycles`)).statusCode).toBe(404);
    const next = await keyA.post(`/v1/sandbox/subscriptions/${ofB.id}/cycles/next`, { amount_minor: '4990' });
    expect(next.statusCode).toBe(404);
    const listed = (await keyA.get('/v1/sandbox/subscriptions')).json().data;
    expect(listed.map((s: { party_id: string }) => s.party_id)).toEqual([partyA]);
  });

  it('has no simulator on live', async () => {
    const live = await ws.liveApi();
    const res = await live.post(
      '/v1/live/simulate/subscriptions/01930000-0000-7000-8000-000000000001/authorise',
      {
        approve: true,
      },
    );
    expect(res.statusCode).toBe(404);
  });
});
