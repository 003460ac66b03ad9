/** SQL of the sandbox clocks: one row per workspace whose sandbox time was moved ahead. */
import type { Queryable } from '../../db/types.ts';

/** How far the workspace's sandbox clock runs ahead of real time, in seconds (0 without a row). */
export async function offsetSecondsOf(q: Queryable, workspaceId: string): Promise<bigint> {
  const { rows } = await q.query<{ offset_seconds: bigint }>(
    'SELECT offset_seconds FROM sandbox_clocks WHERE workspace_id = $1',
    [workspaceId],
  );
  return rows[0]?.offset_seconds ?? 0n;
}

/** Moves the workspace's sandbox clock ahead by `seconds`; the new offset. One statement, so two
 * advances at once both count. */
export async function addOffsetSeconds(
  q: Queryable,
  workspaceId: string,
  seconds: bigint,
  at: Date,
): Promise<bigint> {
  const { rows } = await q.query<{ offset_seconds: bigint }>(
    `INSERT INTO sandbox_clocks (workspace_id, offset_seconds, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id) DO UPDATE
       SET offset_seconds = sandbox_clocks.offset_seconds + EXCLUDED.offset_seconds, updated_at = $3
     RETURNING offset_seconds`,
    [workspaceId, seconds, at],
  );
  return rows[0]!.offset_seconds;
}

/** Every workspace whose sandbox clock runs ahead, with its offset: what a sweep needs to honour them. */
export async function clocksAhead(q: Queryable): Promise<{ workspace_id: string; offset_seconds: bigint }[]> {
  const { rows } = await q.query<{ workspace_id: string; offset_seconds: bigint }>(
    'SELECT workspace_id, offset_seconds FROM sandbox_clocks WHERE offset_seconds > 0 ORDER BY workspace_id',
  );
  return rows;
}
