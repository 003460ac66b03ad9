import type { Queryable, Tx } from '../../db/types.ts';
import { auditAction } from '../../platform/audit.ts';
import type { Environment } from '../../platform/context.ts';
import { invalidRequest, notFound } from '../../platform/errors.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { type PixKeyType, parseDocument } from '../../providers/pix/keys.ts';
import { pixKeyOf } from './checks.ts';

export interface SettlementKeyRow {
  workspace_id: string;
  environment: Environment;
  pix_key: string;
  pix_key_type: PixKeyType;
  holder_name: string;
  holder_document: string;
  created_at: Date;
  updated_at: Date;
}

export const settlementKeyView = (row: SettlementKeyRow) => ({
  workspace_id: row.workspace_id,
  environment: row.environment,
  pix_key: row.pix_key,
  pix_key_type: row.pix_key_type,
  holder_name: row.holder_name,
  holder_document: row.holder_document,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export async function findSettlementKey(q: Queryable, workspaceId: string, environment: string) {
  const { rows } = await q.query<SettlementKeyRow>(
    'SELECT * FROM settlement_keys WHERE workspace_id = $1 AND environment = $2',
    [workspaceId, environment],
  );
  return rows[0];
}

export interface SettlementKeyInput {
  pix_key: string;
  pix_key_type?: PixKeyType;
  holder_name: string;
  holder_document: string;
}

export async function putSettlementKey(tx: Tx, ctx: Ctx, input: SettlementKeyInput) {
  const { caller } = ctx;
  const key = pixKeyOf(input.pix_key, input.pix_key_type);
  const document = parseDocument(input.holder_document);
  if (!document) {
    throw invalidRequest('holder_document must be a valid CPF or CNPJ.', [
      { field: 'body.holder_document', issue: 'not a valid CPF or CNPJ' },
    ]);
  }
  const { rows } = await tx.query<SettlementKeyRow>(
    `INSERT INTO settlement_keys (workspace_id, environment, pix_key, pix_key_type, holder_name, holder_document)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (workspace_id, environment) DO UPDATE
       SET pix_key = EXCLUDED.pix_key, pix_key_type = EXCLUDED.pix_key_type, holder_name = EXCLUDED.holder_name,
           holder_document = EXCLUDED.holder_document, updated_at = EXCLUDED.updated_at
     RETURNING *`,
    [caller.workspaceId, caller.environment, key.value, key.type, input.holder_name.trim(), document.value],
  );
  await auditAction(tx, ctx, 'settlement_key.set', { type: 'settlement_key' }, { pix_key_type: key.type });
  return settlementKeyView(rows[0]!);
}

/** The settlement key of the caller's workspace and environment; 404 when none is registered. */
export async function getSettlementKey(q: Queryable, ctx: Ctx) {
  const key = await findSettlementKey(q, ctx.caller.workspaceId, ctx.caller.environment);
  if (!key) throw notFound('Settlement key');
  return settlementKeyView(key);
}

export async function deleteSettlementKey(tx: Tx, ctx: Ctx) {
  const { caller } = ctx;
  const { rows } = await tx.query<SettlementKeyRow>(
    'DELETE FROM settlement_keys WHERE workspace_id = $1 AND environment = $2 RETURNING *',
    [caller.workspaceId, caller.environment],
  );
  if (!rows[0]) throw notFound('Settlement key');
  await auditAction(tx, ctx, 'settlement_key.deleted', { type: 'settlement_key' });
  return settlementKeyView(rows[0]);
}
