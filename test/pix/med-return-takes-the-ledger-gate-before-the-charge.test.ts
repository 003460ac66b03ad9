/**
 * A MED return and a refund's completion lock in one order: a refund completing takes the workspace's
 * ledger gate (its journal) and then the charge it refunds (to mark it refunded), so a MED return
 * takes the gate before it locks the charge; in the other order each could wait on the other (40P01).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/types.ts';
import { applyMedReturn } from '../../src/modules/pix/med-returns.ts';
import { startWorld } from '../support/world.ts';
import { paidSandboxCharge } from './sandbox-charges.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

/** The transaction, its statements recorded in order. */
function recording(tx: Tx, statements: string[]): Tx {
  return new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver);
      return (sql: string, params?: unknown[]) => {
        statements.push(sql);
        return target.query(sql, params);
      };
    },
  });
}

describe('a MED return', () => {
  it('takes the ledger gate before it locks the charge', async () => {
    const { ws, charge } = await paidSandboxCharge(world, '5000', 'MED lock order');
    const statements: string[] = [];
    const scope = { workspaceId: ws.owner.workspaceId, environment: 'sandbox' as const };
    await world.db.transaction((tx) =>
      applyMedReturn(recording(tx, statements), world.deps, scope, charge.id, {
        returnId: 'MEDlockorder',
        rtrId: null,
        amountMinor: 1000n,
        natureza: 'MED_FRAUDE',
      }),
    );
    const gate = statements.findIndex((sql) => sql.includes('pg_advisory_xact_lock'));
    const chargeLock = statements.findIndex((sql) => /FROM payments[\s\S]*FOR UPDATE/.test(sql));
    expect(gate).toBeGreaterThanOrEqual(0);
    expect(chargeLock).toBeGreaterThan(gate);
  });
});
