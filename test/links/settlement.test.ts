/**
 * The frozen-split rule (spec, States and transitions): the split set in force when a buyer is
 * charged travels with the payment; editing splits later never changes who that payment pays.
 * At settlement the net (after the cash-in fee) goes to each recipient by share, rounded down, the
 * remainder to the link's owner, all in the one journal of the payment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { CPF, checkout, LINKS, type Link, type LinksWorkspace, linksWorkspace, payer } from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx);
});
afterAll(() => ctx.close());

const pay = async (id: string, headers?: Record<string, string>) => {
  const res = await ws.api.post(`/v1/sandbox/simulate/payments/${id}/pay`, {}, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const putSplits = async (
  link: Link,
  splits: { party_id: string; share_bps: number }[],
  headers?: Record<string, string>,
) => {
  const res = await ws.api.put(`${LINKS}/${link.id}/splits`, { splits }, headers);
  expect(res.statusCode, res.body).toBe(200);
};
async function journalsOf(paymentId: string) {
  const { rows } = await ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_journals WHERE reference_type = 'payment' AND reference_id = $1`,
    [paymentId],
  );
  return rows[0]!.n;
}

describe('a checkout payment pays the split frozen when it was charged', () => {
  it('splits changed between charge and payment do not change who is paid; amounts add up to the net', async () => {
    // Fee: 50 + ceil(0.99 %) → on 10001: 50 + 100 = 150; net 9851.
    await ws.setCashInFee(50, 99);
    const [ana, bia, caio] = [await ws.addParty('Ana'), await ws.addParty('Bia'), await ws.addParty('Caio')];
    const owner = ws.owner.defaultPartyId;
    const link = await ws.createLink({ amount_minor: '10001', title: 'Curso' });
    await putSplits(link, [
      { party_id: ana, share_bps: 3333 },
      { party_id: bia, share_bps: 3333 },
    ]);
    const first = await checkout(ctx, link.slug, payer(CPF));
    await putSplits(link, [{ party_id: caio, share_bps: 10000 }]);
    const second = await checkout(ctx, link.slug, payer(CPF));
    await putSplits(link, []);

    const before = {
      ana: await ws.available(ana),
      bia: await ws.available(bia),
      caio: await ws.available(caio),
      owner: await ws.available(owner),
      fee: await ws.feeRevenue(),
    };
    const paid = await pay(first.id);
    expect(paid).toMatchObject({ status: 'completed', amount_minor: '10001', fee_minor: '150' });
    expect(await ws.available(ana)).toBe(before.ana + 3283n); // floor(9851 × 0.3333)
    expect(await ws.available(bia)).toBe(before.bia + 3283n);
    expect(await ws.available(owner)).toBe(before.owner + 3285n); // 9851 − 2 × 3283
    expect(await ws.available(caio)).toBe(before.caio);
    expect(await ws.feeRevenue()).toBe(before.fee + 150n);
    expect(await journalsOf(first.id)).toBe(1);

    await pay(second.id);
    expect(await ws.available(caio)).toBe(before.caio + 9851n);
    expect(await ws.available(owner)).toBe(before.owner + 3285n);
    expect(await ws.available(ana)).toBe(before.ana + 3283n);
    expect(await journalsOf(second.id)).toBe(1);
  });

  it('announces payment_link.payment.completed beside payment.completed, with the parts paid', async () => {
    const ana = await ws.addParty('Ana');
    const link = await ws.createLink({ amount_minor: '1000' });
    await ws.setCashInFee(0, 0);
    await putSplits(link, [{ party_id: ana, share_bps: 2500 }]);
    const charge = await checkout(ctx, link.slug, payer(CPF));
    expect(await ws.eventTypes(charge.id)).toEqual(['payment.created']);
    await pay(charge.id);
    expect(await ws.eventTypes(charge.id)).toEqual([
      'payment.created',
      'payment.completed',
      'payment_link.payment.completed',
    ]);
    const { rows } = await ctx.db.query<{ payload: { data: { object: Record<string, unknown> } } }>(
      `SELECT payload FROM events WHERE type = 'payment_link.payment.completed' AND payload->'data'->'object'->>'id' = $1`,
      [charge.id],
    );
    expect(rows[0]!.payload.data.object).toMatchObject({
      id: charge.id,
      status: 'completed',
      payment_link_id: link.id,
      splits: [
        { party_id: ana, amount_minor: '250' },
        { party_id: ws.owner.defaultPartyId, amount_minor: '750' },
      ],
    });
  });

  it('a charge not started on a link still pays its party alone, with no link event', async () => {
    const before = await ws.available(ws.owner.defaultPartyId);
    const res = await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '400' });
    await pay(res.json().data.id);
    expect(await ws.available(ws.owner.defaultPartyId)).toBe(before + 400n);
    expect(await ws.eventTypes(res.json().data.id)).toEqual(['payment.created', 'payment.completed']);
  });

  it('an expired checkout charge moves nothing and cannot be paid', async () => {
    const ana = await ws.addParty('Ana');
    const link = await ws.createLink({ amount_minor: '800' });
    await putSplits(link, [{ party_id: ana, share_bps: 5000 }]);
    const charge = await checkout(ctx, link.slug, payer(CPF));
    const journals = await ws.journalCount();
    const expired = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/expire`, {});
    expect(expired.json().data.status).toBe('expired');
    const late = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`, {});
    expect(late.statusCode).toBe(422);
    expect(late.json().error).toBe('invalid_state');
    expect(await ws.journalCount()).toBe(journals);
    expect(await ws.available(ana)).toBe(0n);
  });

  it('on a sub-account the split pays the sub-account’s parties', async () => {
    const child = await ws.addSubaccount();
    const acting = { 'x-subaccount-id': child.id };
    const { rows } = await ctx.db.query<{ id: string }>(
      `INSERT INTO parties (id, workspace_id, kind, display_name) VALUES (gen_random_uuid(), $1, 'person', 'Filha') RETURNING id`,
      [child.id],
    );
    const recipient = rows[0]!.id;
    const link = await ws.createLink({ amount_minor: '2000' }, acting);
    await putSplits(link, [{ party_id: recipient, share_bps: 1000 }], acting);
    const charge = await checkout(ctx, link.slug, payer(CPF));
    const parentBefore = await ws.available(ws.owner.defaultPartyId);
    await pay(charge.id, acting);
    expect(await ws.available(recipient, child.id)).toBe(200n);
    expect(await ws.available(child.partyId, child.id)).toBe(1800n);
    expect(await ws.available(ws.owner.defaultPartyId)).toBe(parentBefore);
  });
});
