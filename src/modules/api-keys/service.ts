import type { Queryable, Tx } from '../../db/types.ts';
import { actorOf, auditAction } from '../../platform/audit.ts';
import { type ApiKeyRow, apiKeyView, revokeKey } from '../../platform/auth/api-key-store.ts';
import { newApiKeySecret } from '../../platform/auth/credentials.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { type PageRequest, pageById } from '../../platform/pagination.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { sha256 } from '../../platform/secrets.ts';
import { owningParty } from '../parties/service.ts';

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

export async function createApiKey(tx: Tx, ctx: Ctx, input: { name: string; party_id?: string }) {
  const { caller } = ctx;
  const partyId = input.party_id === undefined ? null : await owningParty(tx, caller, input.party_id);
  const secret = newApiKeySecret(caller.environment);
  const { rows } = await tx.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, workspace_id, environment, name, party_id, key_hash, last4, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      newId(),
      caller.workspaceId,
      caller.environment,
      input.name,
      partyId,
      sha256(secret),
      secret.slice(-4),
      caller.userId ?? null,
    ],
  );
  const key = rows[0]!;
  await auditAction(tx, ctx, 'api_key.created', { type: 'api_key', id: key.id });
  return { ...wireKey(key), secret };
}

export async function listApiKeys(q: Queryable, ctx: Ctx, page: PageRequest) {
  const params: unknown[] = [ctx.caller.workspaceId, ctx.caller.environment];
  const { rows } = await q.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE workspace_id = $1 AND environment = $2 ${pageById(params, page)}`,
    params,
  );
  return rows.map(wireKey);
}

export async function revokeApiKey(tx: Tx, ctx: Ctx, input: { id: string }) {
  const { caller, ip } = ctx;
  const { id } = input;
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
