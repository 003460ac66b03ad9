/**
 * `lastro verify` knows disputes' holds: a dispute's journals must hold in locked exactly what the
 * dispute says while it is open, nothing once closed, and a dispute journal needs its dispute.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sealJournals } from '../../src/ledger/seal.ts';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import { startWorld } from '../support/world.ts';
import { closeDispute, openDispute, paidCashIn } from './support.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

const failing = async () => {
  while ((await sealJournals(world.deps)) > 0);
  const report = await verifyBooks(world.db, 20);
  return Object.fromEntries(report.checks.filter((c) => c.violations > 0).map((c) => [c.name, c.examples]));
};

describe('verify and disputes', () => {
  it('passes open and closed disputes, and names a dispute whose record and hold disagree', async () => {
    const ws = await world.workspace('Verify Disputes');
    const open = await openDispute(ws.api, (await paidCashIn(ws.api, '3000')).id);
    const closed = await openDispute(ws.api, (await paidCashIn(ws.api, '2000')).id);
    await closeDispute(ws.api, closed.id, 'rejected');
    expect(await failing()).toEqual({});

    await world.db.query('UPDATE disputes SET held_minor = held_minor - 1 WHERE id = $1', [open.id]);
    expect(await failing()).toEqual({
      dispute_hold: [
        {
          subject: open.id,
          detail:
            'dispute open holding 2999: its journals net locked 3000, available -3000, 0 postings elsewhere',
        },
      ],
    });
    await world.db.query('UPDATE disputes SET held_minor = held_minor + 1 WHERE id = $1', [open.id]);
    expect(await failing()).toEqual({});
  });
});
