/**
 * A send or poll job claimed before its payment can be read (on Citus, the coordinator's jobs commit
 * before the workers' payments) asks again shortly instead of finishing, which left the payment open
 * with no job to move it.
 */
import { afterAll, expect, it } from 'vitest';
import { startWorld } from '../../../test/support/world.ts';
import type { Database } from '../../db/types.ts';
import { pixTransfers } from '../../modules/pix/transfers.ts';
import { runJobs } from '../../worker.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

/** The database as a job sees it in that window: no payment row yet. */
function withoutPayments(db: Database): Database {
  return new Proxy(db, {
    get(target, name, receiver) {
      if (name !== 'query') return Reflect.get(target, name, receiver);
      return async (sql: string, params?: unknown[]) =>
        /\bFROM payments\b/.test(sql) ? { rows: [], rowCount: 0 } : target.query(sql, params);
    },
  });
}

it('a send job that cannot see its payment yet asks again, and the payout then completes', async () => {
  const alice = await world.workspace('Alice', { settlementKey: true, fund: '10000' });
  const payout = await alice.payout('2000', { pix_key: '52998224725' });
  const job = { paymentId: payout.id, workspaceId: alice.owner.workspaceId, environment: 'sandbox' as const };
  const blind = { ...world.deps, db: withoutPayments(world.deps.db) };

  expect(await pixTransfers.send(blind, job)).toMatchObject({
    done: false,
    reason: 'payment not visible yet',
  });
  expect(await pixTransfers.poll(blind, job)).toMatchObject({
    done: false,
    reason: 'payment not visible yet',
  });

  await runJobs(world.deps, ['pix.send', 'pix.poll']);
  world.clock.advance(60_000);
  await runJobs(world.deps, ['pix.send', 'pix.poll']);
  expect((await alice.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('completed');
});
