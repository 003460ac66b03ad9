/**
 * Revising, cancelling and listing due-date charges in sandbox: a revision changes what the day asks
 * and the same BR Code pays it; a cancelled charge cannot be paid and credits nothing; the list pages
 * and filters, and a party-scoped key sees its party's charges only.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { advanceDays, createDue, DUE, spDate } from './due-charges-support.ts';

const world = await startWorld();
afterAll(() => world.close());

/** R$ 100.00 due in 10 days with a R$ 1.00 rebate: R$ 99.00 due today. */
const terms = (extra: Record<string, unknown> = {}) => ({
  amount_minor: '10000',
  due_date: spDate(10),
  days_valid_after_due: 5,
  rebate: { modality: 1, value_minor: '100' },
  ...extra,
});

describe('revising a due-date charge', () => {
  it('a new amount changes the amount due, and the BR Code the payer has pays it', async () => {
    const ws = await world.workspace();
    const charge = await createDue(ws.api, terms());
    const res = await ws.api.patch(`${DUE}/${charge.id}`, {
      amount_minor: '15000',
      due_date: spDate(20),
      rebate: null,
      fine: { modality: 2, percent: '2.00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'created',
      revision: 1,
      amount_minor: '15000',
      due_date: spDate(20),
      last_payable_date: spDate(25),
      rebate: null,
      fine: { modality: 2, percent: '2.00' },
      amount_due_today_minor: '15000',
      pix_qr_code: charge.pix_qr_code,
    });
    const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ status: 'completed', amount_minor: '15000' });
    expect(await ws.balances()).toMatchObject({ available: '15000' });
    expect(await ws.eventTypes(charge.id)).toEqual([
      'payment.created',
      'payment.updated',
      'due_charge.updated',
      'payment.completed',
    ]);
  });

  it('a revision is checked as a create is, and an unknown field is refused; nothing changes', async () => {
    const ws = await world.workspace();
    const charge = await createDue(ws.api, terms());
    const bad = [
      [{ interest: { modality: 6, percent: '1.00' } }, 'body.interest.modality'],
      [{ rebate: { modality: 1, value_minor: '20000' } }, 'body.rebate.value_minor'],
      [{ due_date: spDate(-1) }, 'body.due_date'],
      [{ debtor: { name: 'X', document: '111.111.111-11' } }, 'body.debtor.document'],
      [{ colour: 'blue' }, 'body.colour'],
      [{ status: 'cancelled', amount_minor: '5000' }, 'body.amount_minor'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await ws.api.patch(`${DUE}/${charge.id}`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error, res.body).toBe('invalid_request');
      expect(JSON.stringify(res.json().details), res.body).toContain(field);
    }
    expect((await ws.api.patch(`${DUE}/${charge.id}`, {})).statusCode).toBe(400);
    expect((await ws.api.patch(`${DUE}/${charge.id}`, { amount_minor: '0' })).json().error).toBe(
      'invalid_amount',
    );
    expect((await ws.api.get(`${DUE}/${charge.id}`)).json().data).toMatchObject({
      revision: 0,
      amount_minor: '10000',
      amount_due_today_minor: '9900',
    });
  });

  it('a paid or expired charge cannot change: 422 invalid_state', async () => {
    const ws = await world.workspace();
    const paid = await createDue(ws.api, terms());
    await ws.api.post(`/v1/sandbox/simulate/payments/${paid.id}/pay`);
    const res = await ws.api.patch(`${DUE}/${paid.id}`, { amount_minor: '500' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toBe('invalid_state');
    const late = await createDue(ws.api, terms({ due_date: spDate(0), days_valid_after_due: 0 }));
    await advanceDays(ws.api, 1);
    const after = await ws.api.patch(`${DUE}/${late.id}`, { status: 'cancelled' });
    expect(after.statusCode, after.body).toBe(422);
    expect(after.json().error).toBe('invalid_state');
  });
});

describe('cancelling a due-date charge', () => {
  it('cancelled, it cannot be paid and credits nothing; a retry with its key replays', async () => {
    const ws = await world.workspace();
    const charge = await createDue(ws.api, terms());
    const key = { 'idempotency-key': `cancel-${charge.id}` };
    const res = await ws.api.patch(`${DUE}/${charge.id}`, { status: 'cancelled' }, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'cancelled', revision: 1, amount_due_today_minor: '0' });
    expect(res.json().data.cancelled_at).toEqual(expect.any(String));
    const again = await ws.api.patch(`${DUE}/${charge.id}`, { status: 'cancelled' }, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json().data).toEqual(res.json().data);
    const twice = await ws.api.patch(`${DUE}/${charge.id}`, { status: 'cancelled' });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().error).toBe('invalid_state');

    const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
    expect(paid.statusCode, paid.body).toBe(422);
    expect(paid.json()).toMatchObject({
      error: 'invalid_state',
      message: expect.stringContaining('cancelled'),
    });
    expect(await ws.balances()).toMatchObject({ available: '0' });
    expect((await ws.api.get(`/v1/sandbox/payments/${charge.id}`)).json().data).toMatchObject({
      status: 'expired',
      failure_reason: 'cancelled',
    });
    expect(await ws.eventTypes(charge.id)).toEqual([
      'payment.created',
      'payment.expired',
      'due_charge.cancelled',
    ]);
  });
});

describe('listing due-date charges', () => {
  it('pages newest first, filters by status and due date, and refuses a cursor that is not an id', async () => {
    const ws = await world.workspace();
    const a = await createDue(ws.api, terms({ due_date: spDate(3) }));
    const b = await createDue(ws.api, terms({ due_date: spDate(6) }));
    const c = await createDue(ws.api, terms({ due_date: spDate(9) }));
    await ws.api.patch(`${DUE}/${b.id}`, { status: 'cancelled' });
    const first = (await ws.api.get(`${DUE}?limit=2`)).json().data;
    expect(first.map((x: { id: string }) => x.id)).toEqual([c.id, b.id]);
    const next = (await ws.api.get(`${DUE}?limit=2&cursor=${b.id}`)).json().data;
    expect(next.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const cancelled = (await ws.api.get(`${DUE}?status=cancelled`)).json().data;
    expect(cancelled.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([
      [b.id, 'cancelled'],
    ]);
    const waiting = (await ws.api.get(`${DUE}?status=created`)).json().data;
    expect(waiting.map((x: { id: string }) => x.id)).toEqual([c.id, a.id]);
    const ranged = (await ws.api.get(`${DUE}?due_date_from=${spDate(4)}&due_date_to=${spDate(9)}`)).json()
      .data;
    expect(ranged.map((x: { id: string }) => x.id)).toEqual([b.id]);
    for (const cursor of ['nope', "'%20OR%201=1--", '00000000-0000-0000-0000-00000000000g']) {
      const res = await ws.api.get(`${DUE}?cursor=${cursor}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  it('a party-scoped key lists, reads and changes its own party’s charges only', async () => {
    const ws = await world.workspace();
    const partyId = await ws.addParty('Filial');
    const scoped = await ws.keyFor(partyId);
    const mine = await createDue(scoped, terms());
    const theirs = await createDue(ws.api, terms());
    const listed = (await scoped.get(DUE)).json().data;
    expect(listed.map((x: { id: string }) => x.id)).toEqual([mine.id]);
    expect((await scoped.get(`${DUE}?party_id=${ws.owner.defaultPartyId}`)).statusCode).toBe(403);
    expect((await scoped.patch(`${DUE}/${theirs.id}`, { status: 'cancelled' })).statusCode).toBe(404);
    expect((await ws.api.get(`${DUE}/${theirs.id}`)).json().data.status).toBe('created');
    const all = (await ws.api.get(`${DUE}?party_id=${partyId}`)).json().data;
    expect(all.map((x: { id: string }) => x.id)).toEqual([mine.id]);
  });
});
