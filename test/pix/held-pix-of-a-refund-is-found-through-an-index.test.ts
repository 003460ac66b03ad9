/**
 * Every failed refund of a workspace asks which held PIX it returned (lockUnassignedOfRefund, by
 * refund_id): an index on (workspace_id, refund_id) answers it, not a scan of the workspace's held PIX.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

describe('the held PIX of a refund', () => {
  it('is found through an index on (workspace_id, refund_id)', async () => {
    const { rows } = await world.db.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'pix_unassigned'",
    );
    expect(rows.some((r) => /\(workspace_id, refund_id\)/.test(r.indexdef))).toBe(true);
  });
});
