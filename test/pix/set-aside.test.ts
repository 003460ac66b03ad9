/**
 * The PIX sweeps and the PSP's notifications work through many tenants' charges in one order. One
 * charge that fails every time (here the database refuses its change, as a trigger makes it) must not
 * stop the others: it is set aside, recorded and counted, and the rest go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGE_EXPIRY, expireDueCharges } from '../../src/modules/pix/charge-payment.ts';
import { pollLiveCharges } from '../../src/modules/pix/notifications/charge-poll.ts';
import { PSP_NOTIFICATION } from '../../src/modules/pix/notifications/receive.ts';
import { CHARGE_POLL } from '../../src/modules/pix/notifications/repo.ts';
import { SetAsideError, setAsideTotal } from '../../src/platform/set-aside.ts';
import { liveWorkspace, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

beforeAll(async () => {
  // Payments listed here cannot change status: the item that fails every time.
  await world.db.exec(`
    CREATE TABLE test_refused_payments (id uuid PRIMARY KEY);
    CREATE FUNCTION test_refuse_payment() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM test_refused_payments WHERE id = NEW.id) THEN
        RAISE EXCEPTION 'payment % refused by the test', NEW.id;
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER test_refuse_payment BEFORE UPDATE ON payments FOR EACH ROW EXECUTE FUNCTION test_refuse_payment();
  `);
});

const refuse = (id: string) => world.db.query('INSERT INTO test_refused_payments (id) VALUES ($1)', [id]);
const counted = async (source: string) =>
  (await setAsideTotal.get()).values.find((v) => v.labels.source === source)?.value ?? 0;
const openItems = async (source: string) =>
  (
    await world.db.query<{ item_key: string; workspace_id: string | null; error: string }>(
      'SELECT item_key, workspace_id, error FROM set_aside_items WHERE source = $1 AND resolved_at IS NULL',
      [source],
    )
  ).rows;
const thrown = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('the charge expiry sweep', () => {
  it('a charge that cannot be expired is set aside and the other tenants’ charges still expire', async () => {
    const alice = await world.workspace('Alice', { settlementKey: true });
    const bob = await world.workspace('Bob', { settlementKey: true });
    const charge = async (ws: typeof alice) =>
      (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '1000', expires_in_seconds: 60 })).json()
        .data;
    const stuck = await charge(alice);
    world.clock.advance(1000);
    const other = await charge(bob);
    await refuse(stuck.id);
    world.clock.advance(61_000);
    const before = await counted(CHARGE_EXPIRY);

    const ended = await thrown(expireDueCharges(world.deps));
    expect((await bob.api.get(`/v1/sandbox/payments/${other.id}`)).json().data.status).toBe('expired');
    expect((await alice.api.get(`/v1/sandbox/payments/${stuck.id}`)).json().data.status).toBe('created');
    expect(ended).toBeInstanceOf(SetAsideError);
    expect(await openItems(CHARGE_EXPIRY)).toEqual([
      {
        item_key: stuck.id,
        workspace_id: alice.owner.workspaceId,
        error: expect.stringContaining('refused'),
      },
    ]);
    expect(await counted(CHARGE_EXPIRY)).toBe(before + 1);
    // Left out until its retry is due, which then succeeds once the cause is gone.
    expect(await expireDueCharges(world.deps)).toBe(0);
    await world.db.query('DELETE FROM test_refused_payments');
    world.clock.advance(61_000);
    expect(await expireDueCharges(world.deps)).toBe(1);
    expect((await alice.api.get(`/v1/sandbox/payments/${stuck.id}`)).json().data.status).toBe('expired');
    expect(await openItems(CHARGE_EXPIRY)).toEqual([]);
  });
});

describe('live charges', () => {
  async function paidAtPsp(name: string, amount: string) {
    const { ws, live: api } = await liveWorkspace(world, name);
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: amount })).json().data;
    const paid = await psp.pay(charge.pix_txid, false);
    return { ws, api, charge, endToEndId: paid.endToEndId };
  }

  it('the poll sets aside a charge it cannot credit and credits the charges after it', async () => {
    const first = await paidAtPsp('Poll Um', '1100');
    const second = await paidAtPsp('Poll Dois', '2200');
    await refuse(first.charge.id);
    const before = await counted(CHARGE_POLL);

    const ended = await thrown(pollLiveCharges(world.deps));
    expect(await second.ws.balances('live')).toMatchObject({ available: '2200' });
    expect((await second.api.get(`/v1/live/payments/${second.charge.id}`)).json().data.status).toBe(
      'completed',
    );
    expect(await first.ws.balances('live')).toMatchObject({ available: '0' });
    expect(ended).toBeInstanceOf(SetAsideError);
    expect((await openItems(CHARGE_POLL)).map((item) => item.item_key)).toEqual([first.charge.id]);
    expect(await counted(CHARGE_POLL)).toBe(before + 1);
    await world.db.query('DELETE FROM test_refused_payments');
  });

  it('a notification item that fails is set aside; the items after it are credited and the PSP gets 200', async () => {
    const first = await paidAtPsp('Aviso Um', '3300');
    const second = await paidAtPsp('Aviso Dois', '4400');
    await refuse(first.charge.id);
    const pixOf = (txid: string) => psp.cobs.get(txid)!.pix[0];
    const before = await counted(PSP_NOTIFICATION);

    const answer = await psp.callback({ pix: [pixOf(first.charge.pix_txid), pixOf(second.charge.pix_txid)] });
    expect(answer).toMatchObject({ status: 200, body: { data: { received: 2, settled: 1 } } });
    expect(await second.ws.balances('live')).toMatchObject({ available: '4400' });
    expect(await first.ws.balances('live')).toMatchObject({ available: '0' });
    expect((await openItems(PSP_NOTIFICATION)).map((item) => item.error)).toEqual([
      expect.stringContaining('refused'),
    ]);
    expect(await counted(PSP_NOTIFICATION)).toBe(before + 1);
    await world.db.query('DELETE FROM test_refused_payments');
  });
});
