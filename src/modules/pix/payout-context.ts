import { sharedRead } from '../../db/shared-read.ts';
import type { Tx } from '../../db/types.ts';
import type { Caller } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { PixKeyType } from '../../providers/pix/keys.ts';
import { requestedParty } from '../parties/service.ts';

export interface PayoutContext {
  partyId: string;
  /** active or blocked: a blocked customer's money cannot move. */
  partyStatus: string;
  kycStatus: string;
  settlement: {
    pix_key: string;
    pix_key_type: PixKeyType;
    holder_name: string;
    holder_document: string;
  } | null;
  feeSchedule: { fixed: bigint; bps: number } | null;
}

/**
 * Everything a payout reads before it writes, in one round trip: the paying party (the requested
 * one, else the default), its status and live KYC status, the settlement key and the payout fee schedule. A payout
 * is on the hot path of a merchant's balance, and every statement saved is latency saved.
 */
export async function loadPayoutContext(tx: Tx, caller: Caller, partyId?: string): Promise<PayoutContext> {
  // Shared: a batch of one merchant's payouts reads its settings once (src/db/group-commit.ts).
  const { rows } = await sharedRead<{
    party_id: string;
    party_status: string;
    kyc_status: string;
    pix_key: string | null;
    pix_key_type: PixKeyType | null;
    holder_name: string | null;
    holder_document: string | null;
    fixed_minor: bigint | null;
    bps: number | null;
  }>(
    tx,
    `SELECT p.id AS party_id, p.status AS party_status, p.kyc_status, sk.pix_key, sk.pix_key_type, sk.holder_name, sk.holder_document,
            fs.fixed_minor, fs.bps
       FROM parties p
       LEFT JOIN settlement_keys sk ON sk.workspace_id = p.workspace_id AND sk.environment = $2
       LEFT JOIN fee_schedules fs ON fs.workspace_id = p.workspace_id AND fs.environment = $2 AND fs.rail = 'pix_payout'
      WHERE p.workspace_id = $1
        AND p.id = coalesce($3::uuid, (SELECT default_party_id FROM workspaces WHERE id = $1))`,
    [caller.workspaceId, caller.environment, requestedParty(caller, partyId)],
  );
  const row = rows[0];
  if (!row) throw notFound('Party');
  return {
    partyId: row.party_id,
    partyStatus: row.party_status,
    kycStatus: row.kyc_status,
    settlement: row.pix_key
      ? {
          pix_key: row.pix_key,
          pix_key_type: row.pix_key_type!,
          holder_name: row.holder_name!,
          holder_document: row.holder_document!,
        }
      : null,
    feeSchedule: row.fixed_minor === null ? null : { fixed: row.fixed_minor, bps: row.bps ?? 0 },
  };
}
