import type { Queryable } from '../../../db/types.ts';
import { newId } from '../../../platform/ids.ts';
import { notWaitingSql } from '../../../platform/set-aside.ts';

/** Where the charge poll sets aside a charge it cannot settle or expire (set_aside_items.source). */
export const CHARGE_POLL = 'pix-charge-poll';

export type NotificationKind = 'charge' | 'refund' | 'payout' | 'unknown' | 'malformed';
export type NotificationOutcome =
  | 'settled'
  | 'duplicate'
  | 'pending'
  | 'unmatched'
  | 'unconfirmed'
  | 'rejected'
  | 'malformed'
  | 'unassigned';

export interface NotificationRecord {
  provider: string;
  kind: NotificationKind;
  reference?: string | null;
  outcome: NotificationOutcome;
  paymentId?: string | null;
  payload: unknown;
}

/**
 * Records one notification item. With `dedupeKey`, a second record of the same key is not written
 * and the answer is false: the caller moved no money and must not.
 */
export async function recordNotification(
  q: Queryable,
  record: NotificationRecord,
  dedupeKey?: string,
): Promise<boolean> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO psp_notifications (id, provider, kind, reference, outcome, payment_id, dedupe_key, payload)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
    [
      newId(),
      record.provider,
      record.kind,
      record.reference?.slice(0, 200) ?? null,
      record.outcome,
      record.paymentId ?? null,
      dedupeKey ?? null,
      JSON.stringify(record.payload ?? null),
    ],
  );
  return rows.length === 1;
}

export interface LivePayment {
  id: string;
  workspace_id: string;
  party_id: string;
  kind: string;
  status: string;
  amount_minor: bigint;
}

const COLUMNS = 'id, workspace_id, party_id, kind, status, amount_minor';

/** A live PIX payment by the id a PSP echoes back (a notification names no workspace). */
export async function findLivePayment(
  q: Queryable,
  id: string,
  kind: string,
): Promise<LivePayment | undefined> {
  const { rows } = await q.query<LivePayment>(
    `SELECT ${COLUMNS} FROM payments WHERE id = $1 AND environment = 'live' AND kind = $2`,
    [id, kind],
  );
  return rows[0];
}

/**
 * A live charge by the txid a PSP names. The PSP names no workspace, so on Citus this reads every
 * shard (without locks; the money then moves in a single-shard transaction): docs/scaling.md says
 * why, and what a txid registry would take.
 */
export async function findLiveCharge(q: Queryable, txid: string): Promise<LivePayment | undefined> {
  const { rows } = await q.query<LivePayment>(
    `SELECT ${COLUMNS} FROM payments WHERE pix_txid = $1 AND environment = 'live' AND kind = 'pix_cash_in'`,
    [txid],
  );
  return rows[0];
}

/**
 * A live Pix Automático cycle's payment by its cobr's txid: its PIX is the cycle's, credited by the
 * subscription's cycle task when the PSP shows the cobr paid, never held as a PIX without a charge.
 */
export async function findLiveCycle(q: Queryable, txid: string): Promise<LivePayment | undefined> {
  const { rows } = await q.query<LivePayment>(
    `SELECT ${COLUMNS} FROM payments WHERE pix_txid = $1 AND environment = 'live' AND kind = 'pix_automatic'`,
    [txid],
  );
  return rows[0];
}

/**
 * Live charges still waiting for their PIX, in id order after `after` (the poll's round-robin cursor),
 * but for those the poll set aside until their retry is due (`waiting`, their ids).
 */
export async function liveChargesAwaiting(
  q: Queryable,
  after: string,
  limit: number,
  waiting: readonly string[],
): Promise<(LivePayment & { pix_txid: string; expires_at: Date | null })[]> {
  const { rows } = await q.query<LivePayment & { pix_txid: string; expires_at: Date | null }>(
    `SELECT ${COLUMNS}, pix_txid, expires_at FROM payments
      WHERE environment = 'live' AND kind = 'pix_cash_in' AND status = 'created' AND pix_txid IS NOT NULL
        AND id > $1 AND ${notWaitingSql('id::text', '$3')} ORDER BY id LIMIT $2`,
    [after, limit, [...waiting]],
  );
  return rows;
}

/**
 * Live charges and Pix Automático cycles paid within `since`, in id order after `after`: the returns
 * poll asks the PSP about each, a few at a time, for devoluções its notification did not bring.
 */
export async function liveChargesPaidSince(
  q: Queryable,
  after: string,
  limit: number,
  since: Date,
): Promise<(LivePayment & { pix_txid: string; pix_tx_id: string | null })[]> {
  const { rows } = await q.query<LivePayment & { pix_txid: string; pix_tx_id: string | null }>(
    `SELECT ${COLUMNS}, pix_txid, pix_tx_id FROM payments
      WHERE environment = 'live' AND kind IN ('pix_cash_in', 'pix_automatic') AND status = 'completed'
        AND pix_txid IS NOT NULL
        AND completed_at >= $3 AND id > $1 ORDER BY id LIMIT $2`,
    [after, limit, since],
  );
  return rows;
}
