import { type GatheredRead, gatheredRead } from '../../db/shared-read.ts';
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

type ContextRow = {
  party_id: string;
  party_status: string;
  kyc_status: string;
  pix_key: string | null;
  pix_key_type: PixKeyType | null;
  holder_name: string | null;
  holder_document: string | null;
  fixed_minor: bigint | null;
  bps: number | null;
};

type ContextKey = readonly [workspaceId: string, environment: string, partyId: string | null];

const COLUMNS = `p.id AS party_id, p.status AS party_status, p.kyc_status, sk.pix_key, sk.pix_key_type,
            sk.holder_name, sk.holder_document, fs.fixed_minor, fs.bps`;

/**
 * The requested party (else the workspace's default), its settlement key and its payout fees. A batch
 * of payouts asks them in one statement for all its workspaces (shared-read.ts, gatheredRead).
 */
const payoutContexts: GatheredRead<ContextKey> = {
  alone: (key) => ({
    text: `SELECT ${COLUMNS}
       FROM parties p
       LEFT JOIN settlement_keys sk ON sk.workspace_id = p.workspace_id AND sk.environment = $2
       LEFT JOIN fee_schedules fs ON fs.workspace_id = p.workspace_id AND fs.environment = $2 AND fs.rail = 'pix_payout'
      WHERE p.workspace_id = $1
        AND p.id = coalesce($3::uuid, (SELECT default_party_id FROM workspaces WHERE id = $1))`,
    params: key,
  }),
  together: (keys) => ({
    text: `SELECT k.ord, ${COLUMNS}
       FROM unnest($1::uuid[], $2::text[], $3::uuid[]) WITH ORDINALITY AS k (workspace_id, environment, party_id, ord)
       JOIN parties p ON p.workspace_id = k.workspace_id
        AND p.id = coalesce(k.party_id, (SELECT default_party_id FROM workspaces w WHERE w.id = k.workspace_id))
       LEFT JOIN settlement_keys sk ON sk.workspace_id = p.workspace_id AND sk.environment = k.environment
       LEFT JOIN fee_schedules fs ON fs.workspace_id = p.workspace_id AND fs.environment = k.environment AND fs.rail = 'pix_payout'`,
    params: [keys.map((key) => key[0]), keys.map((key) => key[1]), keys.map((key) => key[2])],
  }),
  nameOf: (key) => key.join('\u0000'),
};

/**
 * Everything a payout reads before it writes, in one round trip: the paying party (the requested
 * one, else the default), its status and live KYC status, the settlement key and the payout fee schedule. A payout
 * is on the hot path of a merchant's balance, and every statement saved is latency saved.
 */
export async function loadPayoutContext(tx: Tx, caller: Caller, partyId?: string): Promise<PayoutContext> {
  const rows = await gatheredRead<ContextKey, ContextRow>(tx, payoutContexts, [
    caller.workspaceId,
    caller.environment,
    requestedParty(caller, partyId) ?? null,
  ]);
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
