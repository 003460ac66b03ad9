/**
 * PIX payouts and sandbox cash-ins are group-committed interleaved (src/db/group-commit.ts): a burst
 * of one merchant's requests shares batches run side by side without savepoints, run again with a
 * savepoint each when one of them is refused, replays a key or has a MED debt to recover. What the
 * merchant sees must be what one-at-a-time requests would give: exactly the affordable payouts pass,
 * a key pays once, a debt is recovered once, and the books verify.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectBooksVerified } from '../support/books.ts';
import { CPF, startWorld, type Workspace, type World } from '../support/world.ts';
import { paidSandboxCharge } from './sandbox-charges.ts';

const PAYOUT = '/v1/sandbox/pix/payouts';
const CASH_IN = '/v1/sandbox/simulate/pix/cash-in';
const BURST = 30;
const FEE = 100;

/**
 * A burst's requests wait, once authenticated, until all of them are there (or 2 s passed), then go on
 * together: they reach their lane at once and share its batches on PGlite too, where a batch holds
 * the one connection and would otherwise let through only one request at a time.
 */
let gathering: { expected: number; arrived: number; go: () => void; together: Promise<void> } | undefined;
function gather(expected: number) {
  let go!: () => void;
  const together = new Promise<void>((resolve) => {
    go = resolve;
  });
  gathering = { expected, arrived: 0, go, together };
  const timer = setTimeout(go, 2000);
  return () => {
    clearTimeout(timer);
    gathering = undefined;
  };
}
const IN_BURST = { 'x-test-burst': '1' };

// A world per test: a lane an earlier test left running with savepoints would hide what this one
// checks of interleaved batches.
let world: World;
const startBurstWorld = (lanes?: number) =>
  startWorld({ sandboxSettleMs: 0, ...(lanes ? { groupCommitLanes: lanes } : {}) }, (app) => {
    app.addHook('preHandler', async (request) => {
      if (!gathering || request.headers['x-test-burst'] !== '1') return;
      if (++gathering.arrived >= gathering.expected) gathering.go();
      await gathering.together;
    });
  });
beforeEach(async () => {
  world = await startBurstWorld();
});
afterEach(() => world.close());

/** Sends every request of `send` at once, gathered before their handlers; their responses in order. */
async function burst<T>(send: (() => Promise<T>)[]): Promise<T[]> {
  const done = gather(send.length);
  try {
    return await Promise.all(send.map((request) => request()));
  } finally {
    done();
  }
}

const total = (balances: Record<string, string>) => BigInt(balances.available!) + BigInt(balances.locked!);

/** The payments of the workspace with these ids (each id once per payment row). */
const paymentIds = async (ws: Workspace, kind: string) =>
  (
    await world.db.query<{ id: string }>(
      'SELECT id FROM payments WHERE workspace_id = $1 AND kind = $2 ORDER BY id',
      [ws.owner.workspaceId, kind],
    )
  ).rows.map((row) => row.id);

describe('a burst of one merchant’s payouts, interleaved', () => {
  it('passes exactly the payouts the balance covers; the rest are 422 insufficient_balance', async () => {
    const affordable = 25;
    const leftover = 500;
    const funding = affordable * (1000 + FEE) + leftover;
    const ws = await world.workspace('Interleaved overdraw', { settlementKey: true, fund: String(funding) });
    const responses = await burst(
      Array.from(
        { length: BURST },
        (_, i) => () =>
          ws.api.post(
            PAYOUT,
            { amount_minor: '1000', pix_key: CPF },
            { ...IN_BURST, 'idempotency-key': `burst-${i}` },
          ),
      ),
    );
    const accepted = responses.filter((res) => res.statusCode === 200);
    const refused = responses.filter((res) => res.statusCode !== 200);
    expect(accepted).toHaveLength(affordable);
    expect(refused).toHaveLength(BURST - affordable);
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error).toBe('insufficient_balance');
    }
    const ids = accepted.map((res) => res.json().data.id as string);
    expect(new Set(ids).size).toBe(affordable);
    expect(await paymentIds(ws, 'pix_cash_out')).toEqual([...ids].sort());
    for (const res of accepted)
      expect(res.json().data).toMatchObject({ amount_minor: '1000', fee_minor: String(FEE) });

    expect(await ws.balances()).toMatchObject({
      available: String(leftover),
      locked: String(affordable * (1000 + FEE)),
    });
    await world.drainJobs();
    const after = await ws.balances();
    expect(after).toMatchObject({ available: String(leftover), locked: '0' });
    expect(total(after)).toBe(BigInt(funding - affordable * (1000 + FEE)));
    expect(await ws.feeRevenue()).toBe(BigInt(affordable * FEE));
    for (const id of ids)
      expect((await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data.status).toBe('completed');
    await expectBooksVerified(world.deps);
  });

  it('pays one Idempotency-Key sent several times within the burst once, every copy answered with it', async () => {
    const funding = 100_000;
    const ws = await world.workspace('Interleaved same key', { settlementKey: true, fund: String(funding) });
    const copies = 6;
    const body = { amount_minor: '2000', pix_key: CPF };
    // The copies of the one key are spread through the burst, among payouts with keys of their own.
    const sent = Array.from({ length: BURST }, (_, i) =>
      i % 5 === 0
        ? { key: 'same-key', body }
        : { key: `own-${i}`, body: { amount_minor: '1000', pix_key: CPF } },
    );
    expect(sent.filter((s) => s.key === 'same-key')).toHaveLength(copies);
    const responses = await burst(
      sent.map((s) => () => ws.api.post(PAYOUT, s.body, { ...IN_BURST, 'idempotency-key': s.key })),
    );
    for (const res of responses) expect(res.statusCode, res.body).toBe(200);
    const same = responses.filter((_, i) => sent[i]!.key === 'same-key');
    const sameIds = new Set(same.map((res) => res.json().data.id));
    expect(sameIds.size).toBe(1);
    expect(same.filter((res) => res.headers['idempotency-replayed'] === 'true')).toHaveLength(copies - 1);
    for (const res of same) expect(res.json().data).toMatchObject({ amount_minor: '2000' });
    const others = responses.filter((_, i) => sent[i]!.key !== 'same-key');
    expect(new Set(others.map((res) => res.json().data.id)).size).toBe(BURST - copies);
    expect(await ws.paymentCount()).toBe(BURST - copies + 1);
    const spent = 2000 + FEE + (BURST - copies) * (1000 + FEE);
    expect(await ws.balances()).toMatchObject({ available: String(funding - spent), locked: String(spent) });

    // The key with another body, several times in a burst of fresh payouts: 409 each, nothing paid.
    const again = await burst(
      Array.from(
        { length: 12 },
        (_, i) => () =>
          i % 3 === 0
            ? ws.api.post(
                PAYOUT,
                { amount_minor: '3000', pix_key: CPF },
                { ...IN_BURST, 'idempotency-key': 'same-key' },
              )
            : ws.api.post(
                PAYOUT,
                { amount_minor: '1000', pix_key: CPF },
                { ...IN_BURST, 'idempotency-key': `later-${i}` },
              ),
      ),
    );
    again.forEach((res, i) => {
      if (i % 3 === 0) {
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().error).toBe('idempotency_key_reuse');
      } else expect(res.statusCode, res.body).toBe(200);
    });
    expect(await ws.paymentCount()).toBe(BURST - copies + 1 + 8);
    const paid = spent + 8 * (1000 + FEE);
    expect(await ws.balances()).toMatchObject({ available: String(funding - paid), locked: String(paid) });
    await world.drainJobs();
    const after = await ws.balances();
    expect(after).toMatchObject({ available: String(funding - paid), locked: '0' });
    expect(total(after)).toBe(BigInt(funding - paid));
    await expectBooksVerified(world.deps);
  });
});

describe('a burst of payouts over several workspaces and parties', () => {
  // Their settings (party, settlement key, fees) are read in one statement for the batch on PostgreSQL.
  it('pays each from its own party, with its own workspace’s fees', async () => {
    // One lane: the workspaces' payouts meet in the batches, whatever lanes this machine's cores give.
    await world.close();
    world = await startBurstWorld(1);
    const plain = await world.workspace('Spread plain', { settlementKey: true, fund: '100000' });
    const priced = await world.workspace('Spread priced', { settlementKey: true, fund: '100000' });
    await world.db.query(
      `INSERT INTO fee_schedules (workspace_id, environment, rail, fixed_minor, bps)
       VALUES ($1, 'sandbox', 'pix_payout', 250, 0)`,
      [priced.owner.workspaceId],
    );
    const customer = await priced.addParty('Cliente Spread');
    await priced.fund('50000', customer);
    const who = [
      { ws: plain, party: undefined, fee: String(FEE) },
      { ws: priced, party: customer, fee: '250' },
      { ws: priced, party: undefined, fee: '250' },
    ];
    const sent = Array.from({ length: 12 }, (_, i) => who[i % who.length]!);
    const responses = await burst(
      sent.map(
        ({ ws, party }, i) =>
          () =>
            ws.api.post(
              PAYOUT,
              { amount_minor: '1000', pix_key: CPF, ...(party ? { party_id: party } : {}) },
              { ...IN_BURST, 'idempotency-key': `spread-${i}` },
            ),
      ),
    );
    responses.forEach((res, i) => {
      expect(res.statusCode, res.body).toBe(200);
      const { party, fee } = sent[i]!;
      expect(res.json().data).toMatchObject({ amount_minor: '1000', fee_minor: fee });
      if (party) expect(res.json().data.party_id).toBe(party);
      else expect(res.json().data.party_id).not.toBe(customer);
    });
    expect(await priced.balances('sandbox', customer)).toMatchObject({
      available: String(50_000 - 4 * 1250),
    });
    expect(await priced.balances()).toMatchObject({ available: String(100_000 - 4 * 1250) });
    expect(await plain.balances()).toMatchObject({ available: String(100_000 - 4 * (1000 + FEE)) });
    await expectBooksVerified(world.deps);
  });
});

describe('a burst of sandbox cash-ins to a party that owes a MED return', () => {
  it('recovers the debt once, from the first credits, and the party keeps the rest', async () => {
    // A charge of 100.00 paid, 70.00 (and its fee) paid out, then the whole charge returned: 71.00 owed.
    const { ws, charge } = await paidSandboxCharge(world, '10000', 'Interleaved cash-ins owing');
    await ws.setSettlementKey();
    await ws.payout('7000');
    await world.drainJobs();
    const returned = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/med-return`, {
      natureza: 'MED_FRAUDE',
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json().data).toMatchObject({ metadata: { shortfall_minor: '7100' } });
    const owed = 7100;
    const availableRow = async () =>
      ((await ws.api.get('/v1/sandbox/balances?currency=BRL')).json().data as { kind: string }[]).find(
        (b) => b.kind === 'available',
      );
    expect(await availableRow()).toMatchObject({ balance_minor: '0', owed_minor: String(owed) });
    const cashInsBefore = (await paymentIds(ws, 'pix_cash_in')).length;

    // Each cash-in pays part of the debt, and could pay what one other left: a batch whose requests
    // all read the debt before one of them pays it would recover it many times over.
    const amounts = Array.from({ length: BURST }, () => 5000);
    const received = amounts.reduce((sum, a) => sum + a, 0);
    const responses = await burst(
      amounts.map(
        (amount, i) => () =>
          ws.api.post(
            CASH_IN,
            { amount_minor: String(amount) },
            { ...IN_BURST, 'idempotency-key': `cash-in-${i}` },
          ),
      ),
    );
    for (const res of responses) expect(res.statusCode, res.body).toBe(200);
    expect(new Set(responses.map((res) => res.json().data.id)).size).toBe(BURST);
    expect((await paymentIds(ws, 'pix_cash_in')).length).toBe(cashInsBefore + BURST);

    // Nothing owed any more: the balance shows no owed_minor.
    const available = await availableRow();
    expect(available).toMatchObject({ balance_minor: String(received - owed) });
    expect(available).not.toHaveProperty('owed_minor');
    expect(await ws.balances()).toMatchObject({ available: String(received - owed), locked: '0' });
    // What came back to the return is the debt, once: the receivable the return opened is closed.
    const { rows } = await world.db.query<{ outstanding: string }>(
      'SELECT outstanding_minor::text AS outstanding FROM pix_med_returns WHERE workspace_id = $1',
      [ws.owner.workspaceId],
    );
    expect(rows).toEqual([{ outstanding: '0' }]);
    await expectBooksVerified(world.deps);
  });
});
