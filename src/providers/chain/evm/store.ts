/** The EVM adapter's own tables (migration 0015): transfers by payment id, nonces, log cursors. */
import type { Database, Queryable } from '../../../db/types.ts';

export type EvmTransferStatus = 'signed' | 'broadcast' | 'completed' | 'failed';

export interface EvmTransferRow {
  payment_id: string;
  network: string;
  token: string;
  from_address: string;
  to_address: string;
  amount: string;
  key_ref: string | null;
  chain_id: bigint | null;
  nonce: bigint | null;
  gas: bigint | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  tx_hash: string | null;
  raw_tx: string | null;
  status: EvmTransferStatus;
  failure_reason: string | null;
  broadcasts: number;
  seen_at: Date | null;
}

export interface TransferPlan {
  paymentId: string;
  network: string;
  token: string;
  from: string;
  to: string;
  amount: bigint;
  keyRef: string;
  chainId: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

const COLUMNS = `payment_id, network, token, from_address, to_address, amount::text AS amount, key_ref, chain_id,
  nonce, gas, max_fee_per_gas::text AS max_fee_per_gas, max_priority_fee_per_gas::text AS max_priority_fee_per_gas,
  tx_hash, raw_tx, status, failure_reason, broadcasts, seen_at`;

export async function findTransfer(q: Queryable, paymentId: string): Promise<EvmTransferRow | undefined> {
  const { rows } = await q.query<EvmTransferRow>(
    `SELECT ${COLUMNS} FROM evm_transfers WHERE payment_id = $1`,
    [paymentId],
  );
  return rows[0];
}

/** A send refused before it took a nonce (no gas, the token would revert): recorded so a retry answers the same. */
export async function insertRefused(
  q: Queryable,
  input: { paymentId: string; network: string; token: string; from: string; to: string; amount: bigint },
  reason: string,
): Promise<void> {
  await q.query(
    `INSERT INTO evm_transfers (payment_id, network, token, from_address, to_address, amount, status, failure_reason)
     VALUES ($1, $2, $3, $4, $5, $6, 'failed', $7) ON CONFLICT (payment_id) DO NOTHING`,
    [input.paymentId, input.network, input.token, input.from, input.to, input.amount.toString(), reason],
  );
}

/**
 * Gives the transfer its nonce under the address's nonce row lock, with the plan it will be signed
 * over: the lowest one at or above the node's count of the address's transactions including pending
 * ones (never below it: another signer used the address) that no transfer of ours holds.
 * False when another worker planned this payment first.
 */
export async function planTransfer(db: Database, plan: TransferPlan, pendingNonce: bigint): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO evm_nonces (network, address, next_nonce) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [plan.network, plan.from, pendingNonce],
    );
    await tx.query('SELECT 1 FROM evm_nonces WHERE network = $1 AND address = $2 FOR UPDATE', [
      plan.network,
      plan.from,
    ]);
    // The lowest free nonce from the node's count: a gap left by a refused send is filled, or the
    // transfers above it could never be mined. (A new statement: it sees what the lock waited for.)
    const { rows } = await tx.query<{ nonce: bigint }>(
      `SELECT min(c.n) AS nonce FROM (
         SELECT $3::bigint AS n
         UNION ALL SELECT t.nonce + 1 FROM evm_transfers t
          WHERE t.network = $1 AND t.from_address = $2 AND t.status <> 'failed' AND t.nonce >= $3) c
        WHERE NOT EXISTS (SELECT 1 FROM evm_transfers u WHERE u.network = $1 AND u.from_address = $2
                            AND u.status <> 'failed' AND u.nonce = c.n)`,
      [plan.network, plan.from, pendingNonce],
    );
    const nonce = BigInt(rows[0]!.nonce);
    const inserted = await tx.query(
      `INSERT INTO evm_transfers (payment_id, network, token, from_address, to_address, amount, key_ref, chain_id,
                                  nonce, gas, max_fee_per_gas, max_priority_fee_per_gas, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'signed') ON CONFLICT (payment_id) DO NOTHING
       RETURNING payment_id`,
      [
        plan.paymentId,
        plan.network,
        plan.token,
        plan.from,
        plan.to,
        plan.amount.toString(),
        plan.keyRef,
        plan.chainId,
        nonce,
        plan.gas,
        plan.maxFeePerGas.toString(),
        plan.maxPriorityFeePerGas.toString(),
      ],
    );
    if (inserted.rows.length === 0) return false;
    await tx.query(
      'UPDATE evm_nonces SET next_nonce = $3, updated_at = now() WHERE network = $1 AND address = $2',
      [plan.network, plan.from, nonce + 1n],
    );
    return true;
  });
}

export async function setSigned(q: Queryable, paymentId: string, raw: string, hash: string): Promise<void> {
  await q.query(
    `UPDATE evm_transfers SET raw_tx = $2, tx_hash = $3, updated_at = now() WHERE payment_id = $1 AND raw_tx IS NULL`,
    [paymentId, raw, hash],
  );
}

/** The node took the transaction (or already had it): it is in flight, seen now. */
export async function markBroadcast(q: Queryable, paymentId: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE evm_transfers SET status = 'broadcast', broadcasts = broadcasts + 1, seen_at = $2, updated_at = now()
      WHERE payment_id = $1 AND status IN ('signed', 'broadcast')`,
    [paymentId, at],
  );
}

export async function markSeen(q: Queryable, paymentId: string, at: Date): Promise<void> {
  await q.query('UPDATE evm_transfers SET seen_at = $2 WHERE payment_id = $1', [paymentId, at]);
}

/** Final: only an open transfer moves, so two workers settling one transfer agree on its outcome. */
export async function finish(
  q: Queryable,
  paymentId: string,
  status: 'completed' | 'failed',
  reason?: string,
): Promise<void> {
  await q.query(
    `UPDATE evm_transfers SET status = $2, failure_reason = $3, updated_at = now()
      WHERE payment_id = $1 AND status IN ('signed', 'broadcast')`,
    [paymentId, status, reason ?? null],
  );
}

/**
 * A transfer the node refused before ever taking it gives its nonce back when it was the last one
 * handed out, so the next send does not leave a gap the chain would wait on for ever.
 */
export async function releaseNonce(q: Queryable, row: EvmTransferRow): Promise<void> {
  if (row.nonce === null) return;
  await q.query(
    `UPDATE evm_nonces SET next_nonce = $3, updated_at = now()
      WHERE network = $1 AND address = $2 AND next_nonce = $3 + 1`,
    [row.network, row.from_address, row.nonce],
  );
}

/**
 * The first block not yet read of a token's Transfer logs (token lowercase); a token never scanned
 * starts where its network's cursor of before (token '') stood, if any.
 */
export async function logCursor(q: Queryable, network: string, token: string): Promise<bigint | undefined> {
  const { rows } = await q.query<{ next_block: bigint }>(
    `SELECT next_block FROM evm_log_cursors WHERE network = $1 AND token IN ($2, '')
      ORDER BY token = $2 DESC LIMIT 1`,
    [network, token],
  );
  return rows[0] ? BigInt(rows[0].next_block) : undefined;
}

/** Forward only: two watchers racing cannot move it back. */
export async function advanceLogCursor(
  q: Queryable,
  network: string,
  token: string,
  nextBlock: bigint,
): Promise<void> {
  await q.query(
    `INSERT INTO evm_log_cursors (network, token, next_block) VALUES ($1, $2, $3)
     ON CONFLICT (network, token) DO UPDATE
       SET next_block = greatest(evm_log_cursors.next_block, EXCLUDED.next_block), updated_at = now()`,
    [network, token, nextBlock],
  );
}
