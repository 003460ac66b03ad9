import type { Tx } from '../../db/types.ts';
import { actorOf, recordAudit } from '../../platform/audit.ts';
import { type ApiKeyRow, apiKeyView, revokeKey } from '../../platform/auth/api-key-store.ts';
import { newApiKeySecret } from '../../platform/auth/credentials.ts';
import type { Caller, Deps } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { iso } from '../../platform/schema.ts';
import { sha256 } from '../../platform/secrets.ts';

const COLUMNS =
  'id, workspace_id, environment, name, party_id, last4, created_at, last_used_at, revoked_at, revoked_reason';

const wireKey = (row: ApiKeyRow) => {
  const view = apiKeyView(row);
  return {
    ...view,
    created_at: iso(view.created_at),
    last_used_at: iso(view.last_used_at),
    revoked_at: iso(view.revoked_at),
  };
};

export async function createApiKey(
  tx: Tx,
  caller: Caller,
  input: { name: string; party_id?: string },
  ip: string,
) {
  if (input.party_id) {
    const { rows } = await tx.query('SELECT 1 FROM parties WHERE workspace_id = $1 AND id = $2', [
      caller.workspaceId,
      input.party_id,
    ]);
    if (rows.length === 0) throw notFound('Party');
  }
  const secret = newApiKeySecret(caller.environment);
  const { rows } = await tx.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, workspace_id, environment, name, party_id, key_hash, last4, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      newId(),
      caller.workspaceId,
      caller.environment,
      input.name,
      input.party_id ?? null,
      sha256(secret),
      secret.slice(-4),
      caller.userId ?? null,
    ],
  );
  const key = rows[0]!;
  await recordAudit(tx, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    ...actorOf(caller),
    action: 'api_key.created',
    targetType: 'api_key',
    targetId: key.id,
    ip,
  });
  return { ...wireKey(key), secret };
}

export async function listApiKeys(deps: Deps, caller: Caller, page: { limit: number; cursor?: string }) {
  const { rows } = await deps.db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE workspace_id = $1 AND environment = $2 AND ($3::uuid IS NULL OR id < $3)
      ORDER BY id DESC LIMIT $4`,
    [caller.workspaceId, caller.environment, page.cursor ?? null, page.limit],
  );
  return rows.map(wireKey);
}

export async function revokeApiKey(tx: Tx, caller: Caller, id: string, ip: string) {
  const { rows } = await tx.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND workspace_id = $2 AND environment = $3`,
    [id, caller.workspaceId, caller.environment],
  );
  if (!rows[0]) throw notFound('API key');
  const revoked = await revokeKey(tx, id, 'revoked_by_owner', {
    environment: caller.environment,
    ...actorOf(caller),
    ip,
  });
  return wireKey(revoked ?? rows[0]);
}
