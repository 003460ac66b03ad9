import type { Queryable, Tx } from '../../db/types.ts';
import { type AuditEntry, recordAudit } from '../audit.ts';
import type { Environment } from '../context.ts';
import { emitEvent } from '../outbox.ts';
import { credentialsChanged } from './credential-cache.ts';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  environment: Environment;
  name: string;
  party_id: string | null;
  last4: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

const COLUMNS =
  'id, workspace_id, environment, name, party_id, last4, created_at, last_used_at, revoked_at, revoked_reason';

/** The API's view of a key: never the secret nor its hash. */
export function apiKeyView(row: ApiKeyRow) {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    environment: row.environment,
    name: row.name,
    party_id: row.party_id,
    last4: row.last4,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    revoked_reason: row.revoked_reason,
  };
}

export async function findKeyByHash(q: Queryable, hash: Buffer) {
  const { rows } = await q.query<ApiKeyRow & { production_enabled: boolean }>(
    `SELECT ${COLUMNS.split(', ')
      .map((c) => `k.${c}`)
      .join(', ')}, w.production_enabled
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.key_hash = $1`,
    [hash],
  );
  return rows[0];
}

/** Revokes a key once, with its audit entry and api_key.revoked event, all in the caller's transaction. */
export async function revokeKey(
  tx: Tx,
  keyId: string,
  reason: string,
  audit: Omit<AuditEntry, 'workspaceId' | 'action' | 'targetType' | 'targetId'>,
): Promise<ApiKeyRow | undefined> {
  const { rows } = await tx.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = now(), revoked_reason = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    [keyId, reason],
  );
  const key = rows[0];
  if (!key) return undefined;
  credentialsChanged(tx);
  await recordAudit(tx, {
    ...audit,
    workspaceId: key.workspace_id,
    environment: key.environment,
    action: 'api_key.revoked',
    targetType: 'api_key',
    targetId: key.id,
    metadata: { reason, ...audit.metadata },
  });
  await emitEvent(tx, {
    workspaceId: key.workspace_id,
    environment: key.environment,
    type: 'api_key.revoked',
    object: apiKeyView(key),
  });
  return key;
}
