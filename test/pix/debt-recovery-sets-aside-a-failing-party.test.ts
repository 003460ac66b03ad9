/**
 * The debt-recovery sweep: a party whose recovery throws is set aside and the round goes on to the
 * others (it used to stop every round at that party, so nobody after it was ever recovered).
 */
import { afterAll, expect, it } from 'vitest';
import { recoverDebts } from '../../src/modules/pix/med-returns.ts';
import { postTenCentavos } from '../support/books.ts';
import { startWorld } from '../support/world.ts';
import { paidSandboxCharge } from './sandbox-charges.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

/** A workspace whose party owes 7,100 of a MED return, then receives 10 centavos the sweep can take. */
async function owingParty(name: string) {
  const { ws, charge } = await paidSandboxCharge(world, '10000', name);
  await ws.setSettlementKey();
  await ws.payout('7000');
  await world.drainJobs();
  const res = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/med-return`, {});
  expect(res.statusCode, res.body).toBe(200);
  await world.db.transaction((tx) => postTenCentavos(tx, ws.owner.workspaceId, ws.owner.defaultPartyId));
  return ws;
}

const owed = async (workspaceId: string) =>
  (
    await world.db.query<{ owed: string }>(
      'SELECT coalesce(sum(outstanding_minor), 0)::text AS owed FROM pix_med_returns WHERE workspace_id = $1',
      [workspaceId],
    )
  ).rows[0]!.owed;

it('recovers the other parties when one party’s recovery throws, and sets that one aside', async () => {
  const parties = [await owingParty('Owes A'), await owingParty('Owes B')];
  let transactions = 0;
  const db = new Proxy(world.deps.db, {
    get(target, name, receiver) {
      if (name !== 'transaction') return Reflect.get(target, name, receiver);
      return (...args: Parameters<typeof target.transaction>) => {
        if (transactions++ === 0) throw new Error('a party whose recovery cannot run');
        return target.transaction(...args);
      };
    },
  });

  await expect(recoverDebts({ ...world.deps, db })).rejects.toThrow(/set aside/i);

  const left = await Promise.all(parties.map((ws) => owed(ws.owner.workspaceId)));
  expect(left.sort()).toEqual(['7090', '7100']);
  const { rows } = await world.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM set_aside_items WHERE source = 'pix-debt-recovery' AND resolved_at IS NULL",
  );
  expect(rows[0]!.n).toBe(1);
});
