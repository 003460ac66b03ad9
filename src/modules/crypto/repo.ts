import type { Queryable, Tx } from '../../db/types.ts';
import type { Environment } from '../../platform/context.ts';

/** Claims an incoming transfer for crediting; false when it was credited before (same network, hash, log index). */
export async function claimDeposit(
  tx: Tx,
  deposit: {
    workspaceId: string;
    environment: Environment;
    network: string;
    txHash: string;
    logIndex: number;
    walletId: string;
    paymentId: string;
    confirmedAt: Date;
  },
): Promise<boolean> {
  const { rows } = await tx.query(
    `INSERT INTO crypto_deposits (workspace_id, environment, network, tx_hash, log_index, wallet_id, payment_id, confirmed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING payment_id`,
    [
      deposit.workspaceId,
      deposit.environment,
      deposit.network,
      deposit.txHash,
      deposit.logIndex,
      deposit.walletId,
      deposit.paymentId,
      deposit.confirmedAt,
    ],
  );
  return rows.length > 0;
}

/** The payment an incoming transfer was credited as, if it was. */
export async function depositPaymentId(
  q: Queryable,
  key: { workspaceId: string; environment: Environment; network: string; txHash: string; logIndex: number },
): Promise<string | undefined> {
  const { rows } = await q.query<{ payment_id: string }>(
    `SELECT payment_id FROM crypto_deposits
      WHERE workspace_id = $1 AND environment = $2 AND network = $3 AND tx_hash = $4 AND log_index = $5`,
    [key.workspaceId, key.environment, key.network, key.txHash, key.logIndex],
  );
  return rows[0]?.payment_id;
}

export async function watchCursor(q: Queryable, environment: Environment): Promise<Date | undefined> {
  const { rows } = await q.query<{ since: Date }>(
    'SELECT since FROM chain_watch_cursors WHERE environment = $1',
    [environment],
  );
  return rows[0]?.since;
}

/** Moves the cursor forward only: two watchers racing cannot move it back. */
export async function advanceWatchCursor(q: Queryable, environment: Environment, since: Date): Promise<void> {
  await q.query(
    `INSERT INTO chain_watch_cursors (environment, since) VALUES ($1, $2)
     ON CONFLICT (environment) DO UPDATE SET since = greatest(chain_watch_cursors.since, EXCLUDED.since), updated_at = EXCLUDED.updated_at`,
    [environment, since],
  );
}
